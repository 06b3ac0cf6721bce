/** The executable schema: schema.graphql + the resolvers. Shared by Apollo (HTTP) and graphql-ws. */
import { makeExecutableSchema } from '@graphql-tools/schema';
import type { GraphQLSchema } from 'graphql';
import { entityTypeResolvers } from './resolvers/entityTypes';
import { mutationResolvers } from './resolvers/mutation';
import { queryResolvers } from './resolvers/query';
import { subscriptionResolvers } from './resolvers/subscription';
import { DurationScalar, JsonScalar, LongScalar } from './scalars';
import { readSchemaFile } from './schemaFile';

export function buildSchema(typeDefs: string = readSchemaFile()): GraphQLSchema {
  return makeExecutableSchema({
    typeDefs,
    resolvers: {
      Long: LongScalar,
      JSON: JsonScalar,
      Duration: DurationScalar,
      Query: queryResolvers,
      Mutation: mutationResolvers,
      Subscription: subscriptionResolvers,
      ...entityTypeResolvers,
    },
  });
}
