import { geoIndex } from '../geo/testing/geoIndex';

const index = geoIndex();
const ids = (query: Record<string, unknown>, filter?: Record<string, unknown>) => index.search({ query, from: 0, size: 10 }, filter).hits.map((h) => h._id);
const PARIS = { lat: 48.8566, lon: 2.3522 };

describe('geo_distance', () => {
  it('matches the points within the distance (every point form), scoring the boost', () => {
    // Paris-Lyon about 392 km, Paris-London about 344 km, Paris-Berlin about 878 km
    expect(ids({ geo_distance: { distance: '400km', location: PARIS } }).sort()).toEqual(['london', 'lyon', 'paris']);
    expect(ids({ geo_distance: { distance: '350km', location: '48.8566,2.3522' } }).sort()).toEqual(['london', 'paris']);
    expect(ids({ geo_distance: { distance: 200, unit: 'mi', location: [2.3522, 48.8566] } }).sort()).toEqual(['paris']);
    expect(ids({ geo_distance: { distance: '1000km', location: 'POINT (2.3522 48.8566)', distance_type: 'plane' } }).sort()).toEqual(['berlin', 'london', 'lyon', 'paris']);
    const hit = index.search({ query: { geo_distance: { distance: '1km', location: PARIS, boost: 2 } }, from: 0, size: 10 }).hits[0];
    expect([hit._id, hit._score]).toEqual(['paris', 2]);
  });

  it('refuses bad distances, points, fields and parameters', () => {
    expect(() => ids({ geo_distance: { location: PARIS } })).toThrow('requires a "distance"');
    expect(() => ids({ geo_distance: { distance: '0km', location: PARIS } })).toThrow('distance must be greater than zero');
    expect(() => ids({ geo_distance: { distance: 'far', location: PARIS } })).toThrow('cannot parse distance');
    expect(() => ids({ geo_distance: { distance: '1km', location: { lat: 91, lon: 0 } } })).toThrow('illegal latitude value [91]');
    expect(ids({ geo_distance: { distance: '1km', location: { lat: 48.8566, lon: 362.3522 }, validation_method: 'COERCE' } })).toEqual(['paris']);
    expect(() => ids({ geo_distance: { distance: '1km', location: 'u09tvw' } })).toThrow('geohashes are not supported');
    expect(() => ids({ geo_distance: { distance: '1km', name: PARIS } })).toThrow('field [name] is of type [text], but a geo_point field is expected');
    expect(() => ids({ geo_distance: { distance: '1km', where: PARIS } })).toThrow('failed to find geo_point field [where]');
    expect(ids({ geo_distance: { distance: '1km', where: PARIS, ignore_unmapped: true } })).toEqual([]);
    expect(() => ids({ geo_distance: { distance: '1km', location: PARIS, other: PARIS } })).toThrow('takes one geo_point field');
    expect(() => ids({ geo_distance: { distance: '1km', location: PARIS, distance_type: 'sloppy' } })).toThrow('distance_type');
  });

  it('never shows or counts what the caller filter excludes', () => {
    const tenant = { term: { 'tenant.keyword': 'a' } };
    const result = index.search({ query: { geo_distance: { distance: '2000km', location: PARIS } }, from: 0, size: 10 }, tenant);
    expect(result.hits.map((h) => h._id).sort()).toEqual(['london', 'paris']);
    expect(result.total).toBe(2);
  });
});
