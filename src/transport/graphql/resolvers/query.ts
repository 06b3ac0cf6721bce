/** Query resolvers: each calls the core operation REST and the raw WebSocket call. */
import { searchApiKeys } from '../../../core/apiKeys/searchApiKeys';
import { checkRights } from '../../../core/auth/checkRights';
import { countEntities } from '../../../core/entities/countEntities';
import { parseTypeName } from '../../../core/entities/entityType';
import { getEntity } from '../../../core/entities/getEntity';
import { getMapping } from '../../../core/mappings/getMapping';
import { searchEntities } from '../../../core/entities/searchEntities';
import { ANONYMOUS } from '../../../core/principal';
import { parseSearchRequest } from '../../../core/search/searchRequest';
import { getConfig } from '../../../core/server/getConfig';
import { healthCheck } from '../../../core/server/healthCheck';
import { serverInfo } from '../../../core/server/info';
import { serverNow } from '../../../core/server/now';
import type { GraphQLContext } from '../context';
import { unwrap } from '../errors';
import { AGGS_REQUEST } from './entityTypes';

interface SearchArgs {
  query?: unknown;
  from?: number | null;
  size?: number | null;
  sort?: unknown;
  searchAfter?: unknown[] | null;
  timeout?: string | null;
  highlight?: unknown;
  aggs?: unknown;
  source?: unknown;
  fields?: unknown;
  docvalueFields?: unknown;
  storedFields?: unknown;
  trackTotalHits?: unknown;
  terminateAfter?: number | null;
  minScore?: number | null;
  postFilter?: unknown;
  explain?: boolean | null;
  collapse?: unknown;
}

/** GraphQL argument -> the search body's member of the same meaning (the rest of the search request). */
const BODY_MEMBERS: [keyof SearchArgs, string][] = [
  ['source', '_source'],
  ['fields', 'fields'],
  ['docvalueFields', 'docvalue_fields'],
  ['storedFields', 'stored_fields'],
  ['trackTotalHits', 'track_total_hits'],
  ['terminateAfter', 'terminate_after'],
  ['minScore', 'min_score'],
  ['postFilter', 'post_filter'],
  ['explain', 'explain'],
  ['collapse', 'collapse'],
];

/** The GraphQL arguments as the search body and arguments REST would have sent. */
export function searchRequestOf(args: SearchArgs, requestId: string) {
  const body: Record<string, unknown> = {};
  if (args.query !== undefined && args.query !== null) body.query = args.query;
  if (args.sort !== undefined && args.sort !== null) body.sort = args.sort;
  if (args.searchAfter !== undefined && args.searchAfter !== null) body.search_after = args.searchAfter;
  if (args.timeout !== undefined && args.timeout !== null) body.timeout = args.timeout;
  if (args.highlight !== undefined && args.highlight !== null) body.highlight = args.highlight;
  if (args.aggs !== undefined && args.aggs !== null) body.aggs = args.aggs;
  for (const [arg, member] of BODY_MEMBERS) if (args[arg] !== undefined && args[arg] !== null) body[member] = args[arg];
  return unwrap(parseSearchRequest(body, { from: args.from, size: args.size }), requestId);
}

export const queryResolvers = {
  async search(_: unknown, args: SearchArgs & { type: string }, ctx: GraphQLContext) {
    const principal = await ctx.principal();
    const type = unwrap(parseTypeName(args.type), ctx.requestId);
    const request = searchRequestOf(args, ctx.requestId);
    const answer = unwrap(await searchEntities(ctx.deps, principal, { type, request }), ctx.requestId);
    // the request's aggs, for the typed facets (SearchResult.facets)
    if (request.aggs !== undefined) Object.defineProperty(answer, AGGS_REQUEST, { value: request.aggs });
    return answer;
  },

  async count(_: unknown, args: { type: string; query?: unknown }, ctx: GraphQLContext) {
    const principal = await ctx.principal();
    const type = unwrap(parseTypeName(args.type), ctx.requestId);
    const { query } = searchRequestOf({ query: args.query }, ctx.requestId);
    return unwrap(await countEntities(ctx.deps, principal, { type, query }), ctx.requestId).count;
  },

  async mapping(_: unknown, args: { type: string }, ctx: GraphQLContext) {
    const principal = await ctx.principal();
    const type = unwrap(parseTypeName(args.type), ctx.requestId);
    return unwrap(await getMapping(ctx.deps, principal, { type }), ctx.requestId);
  },

  async entity(_: unknown, args: { type: string; id: string }, ctx: GraphQLContext) {
    const principal = await ctx.principal();
    const type = unwrap(parseTypeName(args.type), ctx.requestId);
    const found = await getEntity(ctx.deps, principal, { type, id: args.id });
    if (!found.ok && found.error.id === 'services.storage.not_found') return null;
    return unwrap(found, ctx.requestId)._source;
  },

  async apiKeys(_: unknown, args: SearchArgs, ctx: GraphQLContext) {
    const principal = await ctx.principal();
    return unwrap(await searchApiKeys(ctx.deps, principal, searchRequestOf(args, ctx.requestId)), ctx.requestId);
  },

  async me(_: unknown, __: unknown, ctx: GraphQLContext) {
    const p = await ctx.principal();
    return { userId: p.userId, tenantId: p.tenantId, roles: p.roles, apiKeyId: p.apiKeyId, expiresAt: p.expiresAt };
  },

  // The server controller and auth:checkRights (README "Server and user actions"); now and healthCheck need no token, as over REST.
  serverNow: (_: unknown, __: unknown, ctx: GraphQLContext) => unwrap(serverNow(ctx.deps), ctx.requestId).now,

  async serverInfo(_: unknown, __: unknown, ctx: GraphQLContext) {
    const principal = await ctx.principal();
    return unwrap(await serverInfo(ctx.deps, principal), ctx.requestId).serverInfo;
  },

  async serverConfig(_: unknown, __: unknown, ctx: GraphQLContext) {
    await ctx.principal();
    return unwrap(getConfig(ctx.deps), ctx.requestId);
  },

  healthCheck: async (_: unknown, __: unknown, ctx: GraphQLContext) => unwrap(await healthCheck(ctx.deps, ANONYMOUS, null), ctx.requestId),

  async checkRights(_: unknown, args: { controller: string; action: string }, ctx: GraphQLContext) {
    const principal = await ctx.principal();
    return unwrap(checkRights(ctx.deps, principal, args), ctx.requestId).allowed;
  },
};
