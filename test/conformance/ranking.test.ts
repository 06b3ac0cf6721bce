/**
 * Conformance of ranking and geo search (README "Ranking by popularity, recency or distance" and
 * "Near me") on every store target: function_score (field_value_factor, a date decay, filtered
 * weights), boosting, geo_distance, geo_bounding_box and the _geo_distance sort on a geo_point a
 * mapping declares; and tenant isolation (a function's filter or a geo query never brings another
 * tenant's entity into a page or a count).
 */
import { failsWith, ok, uniqueCollection, type Caller } from './support/api';
import { gatewayOn } from './support/gateway';
import { describeEachStore } from './support/targets';

const CITIES = [
  { name: 'Paris', likes: 100, founded: '2020-01-01', location: { lat: 48.8566, lon: 2.3522 } },
  { name: 'Lyon', likes: 10, founded: '2020-01-11', location: '45.764,4.8357' },
  { name: 'Berlin', likes: 1000, founded: '2019-01-01', location: [13.405, 52.52] },
];
const PARIS = { lat: 48.8566, lon: 2.3522 };

describeEachStore('ranking and geo search', (target) => {
  const gw = gatewayOn(target);
  let admin: Caller;
  let writerA: Caller;
  let writerB: Caller;
  const cities = uniqueCollection('cities');
  const path = (suffix: string) => `/v4/entity/${cities.collection}${suffix}`;
  const search = async (body: Record<string, unknown>, who: Caller = writerA) => ok(who, 'POST', path('/search?size=50'), body);
  const names = async (query: unknown, who: Caller = writerA) => (await search({ query }, who)).hits.map((h: any) => h._source.name);

  beforeAll(async () => {
    admin = await gw.caller('ada', 'hq', ['admin']);
    writerA = await gw.caller('anna', 'tenant-a', ['writer']);
    writerB = await gw.caller('bob', 'tenant-b', ['writer']);
    await ok(admin, 'PUT', path('/_mapping'), { properties: { location: { type: 'geo_point' }, likes: { type: 'long' }, founded: { type: 'date' } } });
    for (const city of CITIES) await ok(writerA, 'POST', path(''), city);
    await ok(writerB, 'POST', path(''), { name: 'Versailles', likes: 100000, founded: '2020-01-01', location: '48.8049,2.1204' });
  });

  it('function_score ranks by a field, a date decay and filtered weights; boosting demotes', async () => {
    expect(await names({ function_score: { field_value_factor: { field: 'likes', modifier: 'log1p' } } })).toEqual(['Berlin', 'Paris', 'Lyon']);
    const decay = await search({ query: { function_score: { gauss: { founded: { origin: '2020-01-01', scale: '10d' } }, boost_mode: 'replace' } } });
    expect(decay.hits.map((h: any) => [h._source.name, h._score])).toEqual([
      ['Paris', 1],
      ['Lyon', 0.5],
      ['Berlin', expect.any(Number)],
    ]);
    expect(await names({ function_score: { functions: [{ filter: { match: { name: 'lyon' } }, weight: 5 }], boost_mode: 'replace' } })).toEqual(['Lyon', 'Paris', 'Berlin']);
    expect(await names({ boosting: { positive: { match_all: {} }, negative: { match: { name: 'paris' } }, negative_boost: 0.5 } })).toEqual(['Lyon', 'Berlin', 'Paris']);
    await failsWith(writerA, 'POST', path('/search'), { query: { function_score: { script_score: { script: { source: '1' } } } } }, 'services.storage.invalid_search_query', 400);
  });

  it('geo_distance, geo_bounding_box and the _geo_distance sort', async () => {
    expect((await names({ geo_distance: { distance: '400km', location: PARIS } })).sort()).toEqual(['Lyon', 'Paris']);
    expect(await names({ geo_bounding_box: { location: { top_left: { lat: 53, lon: 10 }, bottom_right: { lat: 50, lon: 15 } } } })).toEqual(['Berlin']);
    const sorted = await search({ query: { match_all: {} }, sort: [{ _geo_distance: { location: PARIS, unit: 'km' } }] });
    expect(sorted.hits.map((h: any) => h._source.name)).toEqual(['Paris', 'Lyon', 'Berlin']);
    expect(sorted.hits[1].sort[0]).toBeCloseTo(391.5, 1);
    await failsWith(writerA, 'POST', path('/search'), { query: { geo_distance: { distance: '1km', name: PARIS } } }, 'services.storage.invalid_search_query', 400);
  });

  it('never shows or counts another tenant entity', async () => {
    expect(await names({ function_score: { functions: [{ filter: { match: { name: 'versailles' } }, weight: 100 }] } }, writerA)).not.toContain('Versailles');
    expect((await ok(writerA, 'POST', path('/count'), { query: { geo_distance: { distance: '50km', location: PARIS } } })).count).toBe(1);
    expect(await names({ geo_distance: { distance: '50km', location: PARIS } }, writerB)).toEqual(['Versailles']);
  });
});
