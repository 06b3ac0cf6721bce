/**
 * The fixture the search conformance suites share: a gateway on the store target with the
 * countries of test/support (visible to every tenant), and islands written by two tenants' writers
 * (Isle of Anna and Islet Alpha by tenant-a, Isle of Bob and Islet Beta by tenant-b, Isle of Man
 * shared), a reader of each (rita of acme, carl of tenant-c) and an admin; with search, names and
 * count helpers, and the check that a query never shows or counts another tenant's island.
 */
import { COUNTRIES } from '../../support/e2e';
import type { TestServer } from '../../support/testServer';
import { ok, uniqueCollection, type Caller } from './api';
import { startGateway } from './gateway';
import type { Backend, StoreTarget } from './targets';

/** Elasticsearch 8's BM25 (LegacyBM25: k1 1.2, b 0.75, weight times k1 + 1) of a term found once in a field of `dl` terms. */
export function bm25(n: number, N: number, dl: number, avgdl: number): number {
  const idf = Math.log(1 + (N - n + 0.5) / (n + 0.5));
  return idf * 2.2 * (1 / (1 + 1.2 * (0.25 + (0.75 * dl) / avgdl)));
}

/** The average length in words of the countries' names. */
export const NAME_AVGDL = COUNTRIES.reduce((sum, c) => sum + c.name.split(' ').length, 0) / COUNTRIES.length;

type Type = { collection: string };

export interface SearchFixture {
  admin: Caller;
  /** rita, of tenant acme, who sees the countries. */
  reader: Caller;
  writerA: Caller;
  writerB: Caller;
  readerC: Caller;
  countries: Type;
  islands: Type;
  search(query: unknown, who?: Caller, type?: Type): Promise<any>;
  names(query: unknown, who?: Caller, type?: Type): Promise<string[]>;
  count(query: unknown, who: Caller, type?: Type): Promise<number>;
  /** The islands each tenant sees with `query` are its own and the shared one, and counts agree with the pages. */
  expectIslandsIsolated(query: unknown): Promise<void>;
}

/** Sets the fixture up in beforeAll (and down in afterAll) of the calling describe block. */
export function searchFixture(target: StoreTarget): SearchFixture {
  let backend: Backend;
  let server: TestServer;
  const countries = uniqueCollection();
  const islands = uniqueCollection('islands');
  const path = (type: Type, suffix: string) => `/v4/entity/${type.collection}${suffix}`;
  const fixture = { countries, islands } as unknown as SearchFixture;
  fixture.search = async (query, who = fixture.reader, type = countries) => ok(who, 'POST', path(type, '/search?size=50'), { query });
  fixture.names = async (query, who, type) => (await fixture.search(query, who, type)).hits.map((h: any) => h._source.name);
  fixture.count = async (query, who, type = islands) => (await ok(who, 'POST', path(type, '/count'), { query })).count;
  fixture.expectIslandsIsolated = async (query) => {
    const visible = { writerA: ['Isle of Anna', 'Islet Alpha', 'Isle of Man'], writerB: ['Isle of Bob', 'Islet Beta', 'Isle of Man'], readerC: ['Isle of Man'] };
    for (const who of ['writerA', 'writerB', 'readerC'] as const) {
      const seen = await fixture.names(query, fixture[who], islands);
      for (const name of seen) expect(visible[who]).toContain(name);
      expect(await fixture.count(query, fixture[who])).toBe(seen.length);
    }
  };

  beforeAll(async () => {
    backend = await target.open();
    server = await startGateway(backend);
    const make = async (sub: string, tenantId: string, roles: string[]) => ({ server, token: await server.token({ sub, tenantId, roles }) });
    fixture.admin = await make('ada', 'hq', ['admin']);
    fixture.reader = await make('rita', 'acme', []);
    expect((await ok(fixture.admin, 'POST', path(countries, '/_bulk'), COUNTRIES.map((c) => ({ ...c, allowTenantIds: ['*'] })))).errors).toEqual([]);
    fixture.writerA = await make('anna', 'tenant-a', ['writer']);
    fixture.writerB = await make('bob', 'tenant-b', ['writer']);
    fixture.readerC = await make('carl', 'tenant-c', []);
    for (const name of ['Isle of Anna', 'Islet Alpha']) await ok(fixture.writerA, 'POST', path(islands, ''), { name });
    for (const name of ['Isle of Bob', 'Islet Beta']) await ok(fixture.writerB, 'POST', path(islands, ''), { name });
    await ok(fixture.admin, 'POST', path(islands, '/_bulk'), [{ name: 'Isle of Man', allowTenantIds: ['*'] }]);
  });

  afterAll(async () => {
    await server?.stop();
    await backend?.destroy();
  });

  return fixture;
}
