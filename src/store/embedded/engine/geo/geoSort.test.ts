import { geoIndex } from './testing/geoIndex';
import { decodeLatitude, decodeLongitude, encodeLatitude, encodeLongitude } from './geoPoint';
import { haversinMeters, planeDistance } from './sloppyMath';
import { parseGeoSort } from './geoSort';

const index = geoIndex();
const PARIS = { lat: 48.8566, lon: 2.3522 };
const q = (lat: number, lon: number) => [decodeLatitude(encodeLatitude(lat)), decodeLongitude(encodeLongitude(lon))];
const sorted = (sort: unknown, filter?: Record<string, unknown>) => index.search({ query: { match_all: {} }, sort, from: 0, size: 10 }, filter).hits.map((h) => [h._id, h.sort?.[0]]);

describe('_geo_distance sort', () => {
  it('sorts by the arc distance to the quantized points, the distance in the hit sort values', () => {
    const [lyonLat, lyonLon] = q(45.764, 4.8357);
    const hits = sorted([{ _geo_distance: { location: PARIS, unit: 'km' } }]);
    expect(hits.map(([id]) => id)).toEqual(['paris', 'london', 'lyon', 'berlin', 'nowhere']);
    expect(hits[2][1]).toBe(haversinMeters(PARIS.lat, PARIS.lon, lyonLat, lyonLon) / 1000);
    expect(hits[4][1]).toBe('Infinity');
    // descending: a document without a point is at Infinity, hence first, as in Elasticsearch
    expect(sorted([{ _geo_distance: { location: [2.3522, 48.8566], order: 'desc' } }]).map(([id]) => id)).toEqual(['nowhere', 'berlin', 'lyon', 'london', 'paris']);
    const plane = sorted([{ _geo_distance: { location: PARIS, distance_type: 'plane' } }]);
    expect(plane[2][1]).toBe(planeDistance(PARIS.lat, PARIS.lon, lyonLat, lyonLon));
  });

  it('takes several origins and a mode, and search_after on the distance', () => {
    const hits = sorted([{ _geo_distance: { location: [PARIS, '52.52,13.405'], mode: 'min', unit: 'm' } }]);
    expect(hits.slice(0, 2).map(([id]) => id).sort()).toEqual(['berlin', 'paris']);
    const first = index.search({ query: { match_all: {} }, sort: [{ _geo_distance: { location: PARIS } }], from: 0, size: 2 });
    const after = index.search({ query: { match_all: {} }, sort: [{ _geo_distance: { location: PARIS } }], search_after: first.hits[1].sort, from: 0, size: 10 });
    expect(after.hits.map((h) => h._id)).toEqual(['lyon', 'berlin', 'nowhere']);
  });

  it('refuses unknown units, modes, fields and bad points', () => {
    expect(() => parseGeoSort({ location: PARIS, unit: 'parsec' }, 'sort[0]')).toThrow('no distance unit named');
    expect(() => parseGeoSort({ location: PARIS, mode: 'sum' }, 'sort[0]')).toThrow('"mode"');
    expect(() => parseGeoSort({ location: { lat: 100, lon: 0 } }, 'sort[0]')).toThrow('illegal latitude value [100]');
    expect(() => parseGeoSort({}, 'sort[0]')).toThrow('takes one geo_point field');
    expect(() => sorted([{ _geo_distance: { name: PARIS } }])).toThrow('[name] is not a geo_point field');
    expect(sorted([{ _geo_distance: { where: PARIS, ignore_unmapped: true } }])).toHaveLength(5);
  });

  it('never shows what the caller filter excludes', () => {
    expect(sorted([{ _geo_distance: { location: PARIS } }], { term: { 'tenant.keyword': 'b' } }).map(([id]) => id)).toEqual(['lyon', 'berlin']);
  });
});
