/**
 * Custom scalars: Long (64-bit-safe integer ms: GraphQL Int is 32-bit), JSON (any value), and
 * Duration (an `ms` string or integer ms).
 */
import { GraphQLError, GraphQLScalarType, Kind, type ValueNode } from 'graphql';
import { setOwn } from '../../core/args';

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

/** A number literal's value; one a double cannot hold (1e999, or 1e-999 which rounds to 0) is refused. */
function literalNumber(text: string): number {
  const n = Number(text);
  if (!Number.isFinite(n) || (n === 0 && /[1-9]/.test(text.split(/[eE]/)[0]))) {
    throw new GraphQLError(`JSON cannot represent the number ${text.length > 40 ? `${text.slice(0, 40)}…` : text}: it is out of the range of a double`, {
      extensions: { code: 'api.assert.invalid_argument', status: 400 },
    });
  }
  return n;
}

/**
 * A JSON literal of a GraphQL document as the JSON value it spells. Iterative (the document's
 * depth is bounded, MAX_GRAPHQL_DOCUMENT_DEPTH, but graphql-js's own parser spends most of the
 * stack), and every key an own property: `{__proto__: {…}}` is a plain key, not a prototype.
 */
function literalToJson(ast: ValueNode, variables: Record<string, unknown> | null | undefined): unknown {
  const root: Record<string, unknown> = {};
  const stack: [ValueNode, Record<string, unknown> | unknown[], string | number][] = [[ast, root, 'value']];
  while (stack.length > 0) {
    const [node, into, key] = stack.pop() as [ValueNode, Record<string, unknown> | unknown[], string | number];
    let value: unknown;
    switch (node.kind) {
      case Kind.STRING:
      case Kind.BOOLEAN:
      case Kind.ENUM:
        value = node.value;
        break;
      case Kind.INT:
      case Kind.FLOAT:
        value = literalNumber(node.value);
        break;
      case Kind.NULL:
        value = null;
        break;
      case Kind.LIST: {
        const list: unknown[] = new Array(node.values.length);
        for (let i = node.values.length - 1; i >= 0; i--) stack.push([node.values[i], list, i]);
        value = list;
        break;
      }
      case Kind.OBJECT: {
        const object: Record<string, unknown> = {};
        // keys made now, in the literal's order; their values are filled in as the stack unwinds
        for (const field of node.fields) setOwn(object, field.name.value, undefined);
        for (let i = node.fields.length - 1; i >= 0; i--) stack.push([node.fields[i].value, object, node.fields[i].name.value]);
        value = object;
        break;
      }
      case Kind.VARIABLE:
        value = variables && Object.hasOwn(variables, node.name.value) ? variables[node.name.value] : undefined;
        break;
    }
    if (Array.isArray(into)) into[key as number] = value;
    else setOwn(into, key as string, value);
  }
  return root.value;
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
