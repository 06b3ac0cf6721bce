/** auth:searchApiKeys: the caller's own keys (an admin's: everyone's), query DSL over the key fields. */
import { fail, ok, toApiError, type Result } from '../errors';
import { defineOperation } from '../operation';
import { isAdmin, type Principal } from '../principal';
import { parseSearchRequest } from '../search/searchRequest';
import { withTimeBudget } from '../entities/searchEntities';
import { InvalidQueryError, type Hit, type SearchRequest } from '../../store/port';
import type { CoreDeps } from '../deps';
import { publicKeySource } from './publicKey';

export interface ApiKeySearchResult {
  hits: Hit[];
  total: number;
  timed_out?: true;
}

export async function searchApiKeys(deps: CoreDeps, principal: Principal, request: SearchRequest): Promise<Result<ApiKeySearchResult>> {
  const filter = isAdmin(principal) ? null : { term: { userId: principal.userId } };
  const budget = withTimeBudget(request, deps.settings.searchTimeoutMs);
  if (!budget.ok) return budget;
  try {
    const result = await deps.store.apiKeys.searchKeys(request, filter);
    const answer: ApiKeySearchResult = { total: result.total, hits: result.hits.map((h) => ({ ...h, _source: publicKeySource(h._source) })) };
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
  parse: (req) => parseSearchRequest(req.body, req.args),
  run: searchApiKeys,
});
