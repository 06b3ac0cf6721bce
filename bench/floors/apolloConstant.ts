/** Floor: Apollo Server 5 on express 5, stock (express.json() and the @as-integrations/express5 middleware), answering a constant query. */
import { ApolloServer } from '@apollo/server';
import { expressMiddleware } from '@as-integrations/express5';
import express from 'express';
import { createServer } from 'node:http';

async function main() {
  const apollo = new ApolloServer({ typeDefs: 'type Query { hello: String! }', resolvers: { Query: { hello: () => 'world' } } });
  await apollo.start();
  const app = express();
  app.use('/graphql', express.json(), expressMiddleware(apollo));
  const server = createServer(app);
  server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
    process.stdout.write(`listening ${(server.address() as { port: number }).port}\n`);
  });
}
void main();
