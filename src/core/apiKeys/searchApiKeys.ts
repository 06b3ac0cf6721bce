/** auth:searchApiKeys: the caller's own keys (an admin's: everyone's), query DSL over the key fields. */
import { ok, toApiError, type Result } from '../errors';
import { defineOperation } from '../operation';
import { isAdmin, type Principal } from '../principal';
import { parseSearchRequest } from '../search/searchRequest';
import { refuseEntityOnlyMembers } from '../search/searchMembers';
import { withTimeBudget } from '../entities/searchEntities';
import { InvalidQueryError, type Hit, type SearchRequest } from '../../store/port';
import type { CoreDeps } from '../deps';
import { publicKeyHighlight, publicKeySource } from './publicKey';
import { PAGE_ARGS, SEARCH_BODY_SCHEMA, SEARCH_ERRORS } from '../search/searchContract';
import { API_KEY_SEARCH_RESULT_SCHEMA, EXAMPLE_API_KEY } from './apiKeyContract';

export interface ApiKeySearchResult {
  hits: Hit[];
  total: number;
  total_relation?: 'eq' | 'gte';
  terminated_early?: boolean;
  timed_out?: true;
}

/** A hit as a client may see it: the key's public fields, and only their highlights. */
function publicHit(hit: Hit): Hit {
  const out: Hit = { _id: hit._id, _score: hit._score, _source: publicKeySource(hit._source ?? {}) };
  const shown = hit.highlight === undefined ? undefined : publicKeyHighlight(hit.highlight);
  if (shown !== undefined) out.highlight = shown;
  if (hit.sort !== undefined) out.sort = hit.sort;
  return out;
}

export async function searchApiKeys(deps: CoreDeps, principal: Principal, request: SearchRequest): Promise<Result<ApiKeySearchResult>> {
  const filter = isAdmin(principal) ? null : { term: { userId: principal.userId } };
  const members = refuseEntityOnlyMembers(request);
  if (!members.ok) return members;
  const budget = withTimeBudget(request, deps.settings.searchTimeoutMs);
  if (!budget.ok) return budget;
  try {
    const result = await deps.store.apiKeys.searchKeys(request, filter);
    const answer: ApiKeySearchResult = { total: result.total, hits: result.hits.map(publicHit) };
    if (result.total_relation !== undefined) answer.total_relation = result.total_relation;
    if (result.terminated_early !== undefined) answer.terminated_early = result.terminated_early;
    if (result.timed_out === true) answer.timed_out = true;
    return ok(answer);
  } catch (err) {
    if (err instanceof InvalidQueryError) return { ok: false, error: toApiError(err) };
    throw err;
  }
}

export const searchApiKeysOperation = defineOperation<SearchRequest, ApiKeySearchResult>({
  controller: 'auth',
  action: 'searchApiKeys',
  addressesCollection: false,
  contract: {
    summary: 'Search API keys',
    description: "The caller's own keys (an admin's: everyone's), with the query DSL over their fields (`description`, `expiresAt`, `ttl`, `fingerprint`, `userId`). Never a token.",
    args: PAGE_ARGS,
    body: { required: false, schema: SEARCH_BODY_SCHEMA, examples: { ci: { summary: 'Keys described as CI', value: { query: { match: { description: 'ci' } } } }, all: { summary: 'Every key', value: {} } } },
    result: API_KEY_SEARCH_RESULT_SCHEMA,
    resultExample: { hits: [{ _id: 'ci-pipeline', _score: 0.29, _source: EXAMPLE_API_KEY }], total: 1 },
    errors: SEARCH_ERRORS,
  },
  parse: (req) => parseSearchRequest(req.body, req.args),
  run: searchApiKeys,
});
