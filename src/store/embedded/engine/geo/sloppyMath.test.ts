import fc from 'fast-check';
import { distanceQuerySortKey, haversinMeters, haversinSortKey, haversinSortKeyTo, planeDistance, sloppyAsin, sloppyCos, sortKeyMeters } from './sloppyMath';

describe('SloppyMath', () => {
  it('approximates cos and asin closely (Lucene: errors about 1e-15 and 1e-7)', () => {
    for (const a of [0, 0.1, 1, 2.5, -3, 10, 1e6]) expect(Math.abs(sloppyCos(a) - Math.cos(a))).toBeLessThan(1e-14);
    for (const a of [0, 0.2, 0.5, 0.9, 0.99, 1, -0.4]) expect(Math.abs(sloppyAsin(a) - Math.asin(a))).toBeLessThan(1e-7);
    expect(sloppyAsin(1.5)).toBeNaN();
  });

  it('gives haversine distances in metres (pinned against Lucene 8.7 in testing/geo.lucene.test.ts)', () => {
    expect(haversinMeters(0, 0, 0, 0)).toBe(0);
    // a quarter of the equator
    expect(haversinMeters(0, 0, 0, 90)).toBeCloseTo((Math.PI / 2) * 6371008.7714, 3);
    expect(haversinMeters(48.8566, 2.3522, 51.5074, -0.1278)).toBeCloseTo(343556.533, 3);
    expect(sortKeyMeters(haversinSortKey(1, 2, 3, 4))).toBe(haversinMeters(1, 2, 3, 4));
    expect(planeDistance(0, 0, 0, 1)).toBeCloseTo((Math.PI / 180) * 6371008.7714, 6);
  });

  it('finds the smallest sort key reaching a radius', () => {
    for (const radius of [1, 1000, 123456.789, 5e6]) {
      const key = distanceQuerySortKey(radius);
      expect(sortKeyMeters(key)).toBeGreaterThanOrEqual(radius);
    }
    // beyond the largest distance: Lucene's sentinel (the distance of the largest key)
    expect(distanceQuerySortKey(1e12)).toBe(sortKeyMeters(Number.MAX_VALUE));
  });

  it('clears the low 3 bits of the key as Lucene does, and a fixed centre gives the same keys to the bit', () => {
    const view = new DataView(new ArrayBuffer(8));
    // Lucene's Double.longBitsToDouble(Double.doubleToRawLongBits(h) & 0xFFFFFFFFFFFFFFF8L), written with a BigInt
    const unclobbered = (lat1: number, lon1: number, lat2: number, lon2: number) => {
      const r = Math.PI / 180;
      return 1 - sloppyCos(lat1 * r - lat2 * r) + sloppyCos(lat1 * r) * sloppyCos(lat2 * r) * (1 - sloppyCos((lon1 - lon2) * r));
    };
    const clobbered = (h: number) => {
      view.setFloat64(0, h);
      view.setBigUint64(0, view.getBigUint64(0) & 0xfffffffffffffff8n);
      return view.getFloat64(0);
    };
    const lat = fc.double({ min: -90, max: 90, noNaN: true });
    const lon = fc.double({ min: -180, max: 180, noNaN: true });
    fc.assert(
      fc.property(lat, lon, lat, lon, (lat1, lon1, lat2, lon2) => {
        const key = haversinSortKey(lat1, lon1, lat2, lon2);
        expect(Object.is(key, clobbered(unclobbered(lat1, lon1, lat2, lon2)))).toBe(true);
        expect(Object.is(haversinSortKeyTo(lat2, lon2)(lat1, lon1), key)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});
