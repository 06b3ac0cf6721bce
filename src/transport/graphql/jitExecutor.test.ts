import { ApolloServer } from '@apollo/server';
import { makeExecutableSchema } from '@graphql-tools/schema';
import { GraphQLError } from 'graphql';
import { jitGateway } from './jitExecutor';
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
});
