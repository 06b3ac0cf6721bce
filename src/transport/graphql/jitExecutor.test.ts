import { ApolloServer } from '@apollo/server';
import { makeExecutableSchema } from '@graphql-tools/schema';
import { GraphQLError, parse } from 'graphql';
import { jitGateway, needsGraphqlJs } from './jitExecutor';
import { JsonScalar, LongScalar } from './scalars';

const schema = makeExecutableSchema({
  typeDefs: `
    scalar JSON
    scalar Long
    type Hit { id: ID! score: Float source: JSON }
    type Query {
      echo(value: JSON): JSON
      hits(n: Int!): [Hit!]!
      big: Long
      fails: String
    }`,
  resolvers: {
    JSON: JsonScalar,
    Long: LongScalar,
    Query: {
      echo: (_: unknown, { value }: { value: unknown }) => value,
      hits: (_: unknown, { n }: { n: number }) => Array.from({ length: n }, (_, i) => ({ id: `d${i}`, score: i / 2, source: { i } })),
      big: () => 1_700_000_000_123,
      fails: () => {
        throw new GraphQLError('refused', { extensions: { code: 'security.rights.forbidden' } });
      },
    },
  },
});

async function run(server: ApolloServer, query: string, variables?: Record<string, unknown>) {
  const res = await server.executeOperation(variables === undefined ? { query } : { query, variables });
  if (res.body.kind !== 'single') throw new Error('expected a single result');
  return res.body.singleResult;
}

describe('jitGateway: Apollo executing with graphql-jit gives what graphql-js gives', () => {
  const jit = new ApolloServer({ gateway: jitGateway(schema) });
  const plain = new ApolloServer({ schema });
  beforeAll(async () => {
    await jit.start();
    await plain.start();
  });
  afterAll(async () => {
    await jit.stop();
    await plain.stop();
  });

  const cases: [string, string, Record<string, unknown>?][] = [
    ['lists of objects, custom scalars', '{ hits(n: 3) { id score source } big }'],
    ['variables', 'query($n: Int!) { hits(n: $n) { id } }', { n: 2 }],
    // graphql-jit reads literals when it compiles: a variable inside one must still arrive
    ['a variable inside a JSON literal', 'query($id: ID!) { echo(value: {ids: {values: [$id]}}) }', { id: 'x-1' }],
    ['a thrown GraphQL error', '{ fails }'],
    ['a bad variable', 'query($n: Int!) { hits(n: $n) { id } }', { n: 'many' }],
  ];
  // (a rest parameter: jest takes a third named parameter for a `done` callback)
  it.each(cases)('%s', async (...[, query, variables]) => {
    const [a, b] = [await run(jit, query, variables), await run(plain, query, variables)];
    expect(a).toEqual(b);
  });

  it('a variable inside a literal keeps its value (the case graphql-jit alone gets wrong)', async () => {
    const result = await run(jit, 'query($id: ID!) { echo(value: {ids: {values: [$id]}}) }', { id: 'x-1' });
    expect(result.data).toEqual({ echo: { ids: { values: ['x-1'] } } });
  });

  it('the same document twice runs the compiled query again', async () => {
    const first = await run(jit, '{ hits(n: 1) { id } }');
    const second = await run(jit, '{ hits(n: 1) { id } }');
    expect(second).toEqual(first);
    expect(first.data).toEqual({ hits: [{ id: 'd0' }] });
  });

  // graphql-jit 0.8 writes literal arguments into the code it compiles, with its markers replaced by
  // code: this string was `new Date(0+(globalThis.jitInjected=42))`, run by the server
  const INJECTION = '__MAGIC_DATE__33a9e76d_02e0_4128_8e92_3530ad3da74d0+(globalThis.jitInjected=42)';

  it('a string literal holding graphql-jit\'s marker is data, not code', async () => {
    const result = await run(jit, `{ echo(value: {s: "${INJECTION}", n: "__MAGIC_NAN__57f286b9_4c20_487f_b409_79804ddcb4f8"}) }`);
    expect((globalThis as { jitInjected?: unknown }).jitInjected).toBeUndefined();
    expect(result.data).toEqual({ echo: { s: INJECTION, n: '__MAGIC_NAN__57f286b9_4c20_487f_b409_79804ddcb4f8' } });
  });

  it('a literal key __proto__ is a key (graphql-jit would set a prototype)', async () => {
    const result = await run(jit, '{ echo(value: {__proto__: {polluted: 1}, name: "x"}) }');
    expect(JSON.stringify(result.data)).toBe('{"echo":{"__proto__":{"polluted":1},"name":"x"}}');
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });
});

describe('needsGraphqlJs', () => {
  it.each([
    ['{ hits(n: 1) { id } }', false],
    ['{ echo(value: {match: {name: "france"}}) }', false],
    ['query($v: JSON) { echo(value: $v) }', false],
    ['query($v: ID!) { echo(value: [$v]) }', true],
    ['{ echo(value: "__MAGIC_DATE__x") }', true],
    ['{ echo(value: [__MAGIC_NAN__x]) }', true],
    ['{ echo(value: {__proto__: 1}) }', true],
    ['{ echo(value: {a: {b: [{__MAGIC_x: 1}]}}) }', true],
  ])('%s: %p', (query, expected) => {
    expect(needsGraphqlJs(parse(query))).toBe(expected);
  });
});
