/**
 * Test support for request-shape tests of query clauses: a store backend on the fake node, and the
 * two checks such tests make: a query is sent to the cluster exactly as written, inside the tenant
 * filter (search and count), and what the embedded parsers refuse is refused before anything is
 * sent.
 */
import { InvalidQueryError } from '../../port';
import { Backend } from '../backend';
import { runCount, runSearch } from '../search';
import { FakeElasticsearch } from './fakeElasticsearch';

export const TENANT_FILTER = { terms: { allowTenantIds: ['acme', '*'] } };

export function fakeBackend(): { fake: FakeElasticsearch; backend: Backend } {
  const fake = new FakeElasticsearch();
  const backend = new Backend(fake.client(), { retry: { retries: 1, baseDelayMs: 1, maxDelayMs: 1 } });
  return { fake, backend };
}

/** Searches and counts with `query`: both bodies hold it unchanged under the tenant filter. */
export async function expectSentUnchanged(query: Record<string, unknown>): Promise<void> {
  const { fake, backend } = fakeBackend();
  await runSearch(backend, 'gw-countries', { from: 0, size: 5, query }, TENANT_FILTER);
  await runCount(backend, 'gw-countries', query, TENANT_FILTER);
  const restricted = { bool: { must: [query], filter: [TENANT_FILTER] } };
  expect(fake.requests.map((r) => r.body.query)).toEqual([restricted, restricted]);
}

/** Each query is refused (InvalidQueryError) and nothing reaches the cluster. */
export async function expectRefusedBeforeSending(queries: readonly Record<string, unknown>[]): Promise<void> {
  const { fake, backend } = fakeBackend();
  for (const query of queries) {
    await expect(runSearch(backend, 'gw-countries', { from: 0, size: 10, query }, TENANT_FILTER)).rejects.toBeInstanceOf(InvalidQueryError);
  }
  expect(fake.requests).toEqual([]);
}
