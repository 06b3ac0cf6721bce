import { geoIndex } from '../geo/testing/geoIndex';

const index = geoIndex();
const ids = (query: Record<string, unknown>, filter?: Record<string, unknown>) =>
  index
    .search({ query, from: 0, size: 10 }, filter)
    .hits.map((h) => h._id)
    .sort();

// France and around: Paris and Lyon inside, London (51.5) north of it, Berlin (13.4) east
const FRANCE = { top_left: { lat: 51, lon: -5 }, bottom_right: { lat: 42, lon: 8 } };

describe('geo_bounding_box', () => {
  it('matches the points inside the box, however the corners are given', () => {
    expect(ids({ geo_bounding_box: { location: FRANCE } })).toEqual(['lyon', 'paris']);
    expect(ids({ geo_bounding_box: { location: { top_right: '51,8', bottom_left: [-5, 42] } } })).toEqual(['lyon', 'paris']);
    expect(ids({ geo_bounding_box: { location: { top: 53, left: -5, bottom: 42, right: 14 } } })).toEqual(['berlin', 'london', 'lyon', 'paris']);
    expect(ids({ geo_bounding_box: { location: { wkt: 'BBOX (-5, 8, 51, 42)' } } })).toEqual(['lyon', 'paris']);
    // left east of right: across the dateline, everything from 3E eastwards and up to 0 westwards
    expect(ids({ geo_bounding_box: { location: { top: 60, left: 3, bottom: 40, right: 0 } } })).toEqual(['berlin', 'london', 'lyon']);
    const hit = index.search({ query: { geo_bounding_box: { location: FRANCE, boost: 3 } }, from: 0, size: 1 }).hits[0];
    expect(hit._score).toBe(3);
  });

  it('refuses incomplete or inverted boxes, bad coordinates and unknown members', () => {
    expect(() => ids({ geo_bounding_box: { location: { top_left: '51,-5' } } })).toThrow('the box needs its bottom');
    expect(() => ids({ geo_bounding_box: { location: { top: 40, left: -5, bottom: 42, right: 8 } } })).toThrow('top is below bottom corner');
    expect(() => ids({ geo_bounding_box: { location: { top: 100, left: -5, bottom: 42, right: 8 } } })).toThrow('illegal latitude value [100]');
    expect(() => ids({ geo_bounding_box: { location: { wkt: 'POLYGON ((0 0))' } } })).toThrow('BBOX (minLon, maxLon, maxLat, minLat)');
    expect(() => ids({ geo_bounding_box: { location: { ...FRANCE, center: '1,1' } } })).toThrow('unexpected field [center]');
    expect(() => ids({ geo_bounding_box: { where: FRANCE } })).toThrow('failed to find geo_point field [where]');
    expect(ids({ geo_bounding_box: { where: FRANCE, ignore_unmapped: true } })).toEqual([]);
    expect(ids({ geo_bounding_box: { location: { top: 51, left: 355, bottom: 42, right: 368 }, validation_method: 'coerce' } })).toEqual(['lyon', 'paris']);
  });

  it('never shows or counts what the caller filter excludes', () => {
    const tenant = { term: { 'tenant.keyword': 'b' } };
    expect(ids({ geo_bounding_box: { location: FRANCE } }, tenant)).toEqual(['lyon']);
    expect(index.count({ geo_bounding_box: { location: FRANCE } }, tenant)).toBe(1);
  });
});
