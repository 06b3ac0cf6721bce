/** geoProblem: coordinates Koncorde's native geo index must never see (one aborts the process). */
import { geoProblem } from './koncordeGeo';

describe('geoProblem', () => {
  it('lets coordinates within range through, in every form Koncorde reads', () => {
    for (const filter of [
      { geoDistance: { p: { lat: 90, lon: -180 }, distance: '1km' } },
      { geoDistance: { p: '48.85,2.35', distance: '1km' } },
      { geoDistance: { p: [-90, 180], distance: '1km' } },
      { geoDistance: { p: 'u09tvw0f6szy', distance: '1km' } },
      { geoDistanceRange: { p: { lat: 0, lon: 0 }, from: '1km', to: '2km' } },
      { geoBoundingBox: { p: { top: 90, left: -180, bottom: -90, right: 180 } } },
      { geoBoundingBox: { p: { topLeft: '10,0', bottomRight: [0, 10] } } },
      { geoPolygon: { p: { points: [[1, 0], { lat: 0, lon: 0 }, '0,10'] } } },
      { and: [{ equals: { a: 1 } }, { not: { geoDistance: { p: { lat: 1, lon: 1 }, distance: '1m' } } }] },
      { equals: { lat: 500 } },
    ]) {
      expect(geoProblem(filter)).toBeUndefined();
    }
  });

  it.each([
    ['a centre beyond the pole (aborts Koncorde)', { geoDistance: { location: { lat: 100, lon: 0 }, distance: '1km' } }, 'geoDistance', 'latitude 100'],
    ['an annulus centre below the pole', { geoDistanceRange: { location: [-90.5, 0], from: '1km', to: '2km' } }, 'geoDistanceRange', 'latitude -90.5'],
    ['an infinite latitude (1e309 in JSON)', { geoDistance: { location: { lat: Infinity, lon: 0 }, distance: '1km' } }, 'geoDistance', 'latitude Infinity'],
    ['a longitude beyond 180', { geoDistance: { location: '10,200', distance: '1km' } }, 'geoDistance', 'longitude 200'],
    ['a box edge beyond the pole', { geoBoundingBox: { location: { top: 100, left: 0, bottom: 0, right: 10 } } }, 'geoBoundingBox', 'latitude 100'],
    ['a polygon point out of range', { geoPolygon: { location: { points: [[1, 0], [0, 500], [0, 10]] } } }, 'geoPolygon', 'longitude 500'],
  ])('refuses %s, naming the keyword and field', (_label, filter, keyword, reason) => {
    expect(geoProblem(filter)).toEqual({ keyword, path: `${keyword}.location`, reason: expect.stringContaining(reason) });
  });

  it('looks inside and, or, not, bool and the query of a select', () => {
    const far = { geoDistance: { p: { lat: 91, lon: 0 }, distance: '1m' } };
    for (const filter of [{ or: [{ equals: { a: 1 } }, far] }, { and: [{ exists: 'x' }, { not: far }] }, { bool: { must_not: [far] } }, { select: { field: 'list', index: 0, query: far } }]) {
      expect(geoProblem(filter)?.keyword).toBe('geoDistance');
    }
  });

  it('leaves malformed filters to Koncorde', () => {
    expect(geoProblem({ geoDistance: { p: 'not a point', distance: '1km' } })).toBeUndefined();
  });
});
