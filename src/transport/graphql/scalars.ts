/**
 * Custom scalars: Long (64-bit-safe integer ms: GraphQL Int is 32-bit), JSON (any value), and
 * Duration (an `ms` string or integer ms).
 */
import { GraphQLError, GraphQLScalarType, Kind, type ValueNode } from 'graphql';

const fail = (message: string) => new GraphQLError(message, { extensions: { code: 'api.assert.invalid_type', status: 400 } });

function toLong(value: unknown): number {
  const n = typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isSafeInteger(n)) throw fail(`Long cannot represent ${JSON.stringify(value)}: an integer within ±2^53 is required`);
  return n;
}

export const LongScalar = new GraphQLScalarType({
  name: 'Long',
  description: 'Integer milliseconds, 64-bit safe (±2^53).',
  serialize: toLong,
  parseValue: toLong,
  parseLiteral(ast) {
    if (ast.kind === Kind.INT || ast.kind === Kind.STRING) return toLong(ast.value);
    throw fail('Long must be an integer');
  },
});

function literalToJson(ast: ValueNode, variables: Record<string, unknown> | null | undefined): unknown {
  switch (ast.kind) {
    case Kind.STRING:
    case Kind.BOOLEAN:
    case Kind.ENUM:
      return ast.value;
    case Kind.INT:
    case Kind.FLOAT:
      return Number(ast.value);
    case Kind.NULL:
      return null;
    case Kind.LIST:
      return ast.values.map((v) => literalToJson(v, variables));
    case Kind.OBJECT:
      return Object.fromEntries(ast.fields.map((f) => [f.name.value, literalToJson(f.value, variables)]));
    case Kind.VARIABLE:
      return variables ? variables[ast.name.value] : undefined;
  }
}

export const JsonScalar = new GraphQLScalarType({
  name: 'JSON',
  description: 'Any JSON value.',
  serialize: (v) => v,
  parseValue: (v) => v,
  parseLiteral: literalToJson,
});

function toDuration(value: unknown): string | number {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
  throw fail('Duration must be an ms duration string ("1h") or integer milliseconds');
}

export const DurationScalar = new GraphQLScalarType({
  name: 'Duration',
  description: 'An ms duration string ("1h", "30d") or integer milliseconds; -1 never expires.',
  serialize: toDuration,
  parseValue: toDuration,
  parseLiteral(ast) {
    if (ast.kind === Kind.STRING) return ast.value;
    if (ast.kind === Kind.INT) return toDuration(Number(ast.value));
    throw fail('Duration must be a string or an integer');
  },
});
