/** Mutation resolvers: the same core operations as REST and the raw WebSocket. */
import { createApiKey, validateCreateApiKey } from '../../../core/apiKeys/createApiKey';
import { deleteApiKey } from '../../../core/apiKeys/deleteApiKey';
import { createEntity } from '../../../core/entities/createEntity';
import { deleteEntity } from '../../../core/entities/deleteEntity';
import { parseTypeName } from '../../../core/entities/entityType';
import { mCreateEntities, type BulkItem } from '../../../core/entities/mCreateEntities';
import { replaceEntity, updateEntity } from '../../../core/entities/replaceEntity';
import { parseMappingBody } from '../../../core/mappings/mappingContract';
import { updateMapping } from '../../../core/mappings/updateMapping';
import type { GraphQLContext } from '../context';
import { unwrap } from '../errors';

type EntityArgs = { type: string; id: string; data: unknown };

async function address(args: { type: string }, ctx: GraphQLContext) {
  const principal = await ctx.principal();
  return { principal, type: unwrap(parseTypeName(args.type), ctx.requestId) };
}

export const mutationResolvers = {
  async createApiKey(_: unknown, args: { description: string; expiresIn?: string | number | null; id?: string | null }, ctx: GraphQLContext) {
    const principal = await ctx.principal();
    const input = unwrap(validateCreateApiKey({ description: args.description, expiresIn: args.expiresIn, _id: args.id }), ctx.requestId);
    const key = unwrap(await createApiKey(ctx.deps, principal, input), ctx.requestId);
    return { id: key._id, ...key._source };
  },

  async deleteApiKey(_: unknown, args: { id: string }, ctx: GraphQLContext) {
    const principal = await ctx.principal();
    return unwrap(await deleteApiKey(ctx.deps, principal, args.id), ctx.requestId)._id;
  },

  async createEntity(_: unknown, args: { type: string; id?: string | null; data: unknown }, ctx: GraphQLContext) {
    const { principal, type } = await address(args, ctx);
    return unwrap(await createEntity(ctx.deps, principal, { type, id: args.id ?? undefined, body: args.data }), ctx.requestId)._source;
  },

  async putMapping(_: unknown, args: { type: string; mapping: unknown }, ctx: GraphQLContext) {
    const { principal, type } = await address(args, ctx);
    const mapping = unwrap(parseMappingBody(args.mapping), ctx.requestId);
    return unwrap(await updateMapping(ctx.deps, principal, { type, mapping }), ctx.requestId);
  },

  async replaceEntity(_: unknown, args: EntityArgs, ctx: GraphQLContext) {
    const { principal, type } = await address(args, ctx);
    return unwrap(await replaceEntity(ctx.deps, principal, { type, id: args.id, body: args.data }), ctx.requestId)._source;
  },

  async updateEntity(_: unknown, args: EntityArgs, ctx: GraphQLContext) {
    const { principal, type } = await address(args, ctx);
    return unwrap(await updateEntity(ctx.deps, principal, { type, id: args.id, body: args.data }), ctx.requestId)._source;
  },

  async deleteEntity(_: unknown, args: { type: string; id: string }, ctx: GraphQLContext) {
    const { principal, type } = await address(args, ctx);
    return unwrap(await deleteEntity(ctx.deps, principal, { type, id: args.id }), ctx.requestId)._id;
  },

  async createEntities(_: unknown, args: { type: string; entities: { id?: string | null; data: unknown }[] }, ctx: GraphQLContext) {
    const { principal, type } = await address(args, ctx);
    const documents: BulkItem[] = args.entities.map((e) => ({ _id: e.id ?? undefined, body: e.data }));
    const result = unwrap(await mCreateEntities(ctx.deps, principal, { type, documents }), ctx.requestId);
    return {
      created: result.successes.map((s) => s._source),
      errors: result.errors.map((e) => ({
        index: documents.indexOf(e.document),
        id: e.document._id ?? null,
        code: e.reason.id,
        status: e.status,
        message: e.reason.message,
      })),
    };
  },
};
