import { geoIndex } from './testing/geoIndex';
import { decodeLatitude, decodeLongitude, encodeLatitude, encodeLongitude } from './geoPoint';
import { haversinMeters } from './sloppyMath';

const index = geoIndex();
const PARIS = { lat: 48.8566, lon: 2.3522 };
const f = Math.fround;

describe('decay functions on geo_point fields', () => {
  it('decay with the arc distance from the origin to the quantized point', () => {
    const lyon = haversinMeters(PARIS.lat, PARIS.lon, decodeLatitude(encodeLatitude(45.764)), decodeLongitude(encodeLongitude(4.8357)));
    const query = { function_score: { gauss: { location: { origin: PARIS, scale: '100km', offset: '10km' } }, boost_mode: 'replace' } };
    const hits = index.search({ query, from: 0, size: 10 }).hits;
    const lyonHit = hits.find((h) => h._id === 'lyon');
    const processed = (0.5 * 100000 ** 2) / Math.log(0.5);
    expect(Math.fround(lyonHit?._score as number)).toBe(f(Math.exp((0.5 * (lyon - 10000) ** 2) / processed)));
    // no point: distance 0, factor 1; Paris is within the offset
    expect(hits.slice(0, 2).map((h) => [h._id, h._score])).toEqual([
      ['paris', 1],
      ['nowhere', 1],
    ]);
  });

  it('needs origin and scale as a point and distances', () => {
    const run = (params: Record<string, unknown>) => index.search({ query: { function_score: { exp: { location: params } } }, from: 0, size: 1 });
    expect(() => run({ scale: '1km' })).toThrow('[origin] and [scale] must be set for geo fields');
    expect(() => run({ origin: PARIS, scale: 'far' })).toThrow('cannot parse distance');
    expect(() => run({ origin: 'nowhere', scale: '1km' })).toThrow('geohashes are not supported');
    expect(() => run({ origin: PARIS, scale: '1km', decay: 2 })).toThrow('decay must be in the range');
  });
});
