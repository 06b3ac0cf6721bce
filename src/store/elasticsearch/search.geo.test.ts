/**
 * Request shapes of the geo queries and the `_geo_distance` sort: checked with the embedded store's
 * parsers (same parameters accepted, same 400s), then sent to the cluster exactly as written, the
 * queries inside the tenant filter; the cluster reads the geo_point mapping and computes distances.
 */
import { InvalidQueryError } from '../port';
import { runSearch } from './search';
import { TENANT_FILTER, expectRefusedBeforeSending, expectSentUnchanged, fakeBackend } from './testing/requestShapes';

const PARIS = { lat: 48.8566, lon: 2.3522 };

const QUERIES: Record<string, unknown>[] = [
  { geo_distance: { distance: '200km', location: PARIS } },
  { geo_distance: { distance: 12, unit: 'mi', location: [2.3522, 48.8566], distance_type: 'plane', validation_method: 'COERCE', ignore_unmapped: true, boost: 2, _name: 'near' } },
  { geo_bounding_box: { location: { top_left: { lat: 51, lon: -5 }, bottom_right: { lat: 42, lon: 8 } } } },
  { geo_bounding_box: { location: { wkt: 'BBOX (-5, 8, 51, 42)' }, validation_method: 'ignore_malformed' } },
  { function_score: { query: { match_all: {} }, gauss: { location: { origin: PARIS, scale: '10km' } } } },
];

describe('Elasticsearch store: geo queries and sort', () => {
  it.each(QUERIES)('sends %j unchanged inside the tenant filter', async (query) => {
    await expectSentUnchanged(query);
  });

  it('sends the _geo_distance sort unchanged', async () => {
    const { fake, backend } = fakeBackend();
    const sort = [{ _geo_distance: { location: PARIS, order: 'asc', unit: 'km', mode: 'min', distance_type: 'arc' } }];
    await runSearch(backend, 'gw-countries', { from: 0, size: 5, query: { match_all: {} }, sort }, TENANT_FILTER);
    expect(fake.requests[0].body.sort).toEqual(sort);
  });

  it('sends nothing for what the embedded store refuses (same 400)', async () => {
    await expectRefusedBeforeSending([
      { geo_distance: { location: PARIS } },
      { geo_distance: { distance: '0km', location: PARIS } },
      { geo_distance: { distance: '1km', location: { lat: 91, lon: 0 } } },
      { geo_bounding_box: { location: { top: 40, left: -5, bottom: 42, right: 8 } } },
      { geo_bounding_box: { location: { top_left: '51,-5' } } },
    ]);
    const { fake, backend } = fakeBackend();
    const sort = [{ _geo_distance: { location: PARIS, unit: 'parsec' } }];
    await expect(runSearch(backend, 'gw-countries', { from: 0, size: 5, sort }, TENANT_FILTER)).rejects.toBeInstanceOf(InvalidQueryError);
    expect(fake.requests).toEqual([]);
  });
});
