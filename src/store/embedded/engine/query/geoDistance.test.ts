import fc from 'fast-check';
import { SearchIndex } from '../searchIndex';
import { geoIndex } from '../geo/testing/geoIndex';
import { decodeLatitude, decodeLongitude, encodeLatitude, encodeLongitude } from '../geo/geoPoint';
import { distanceQuerySortKey, haversinMeters, haversinSortKey } from '../geo/sloppyMath';

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

  it('matches exactly the points whose haversine key is within the radius (strips, inner longitudes), wherever the circle lies', () => {
    // points crowded on and around circles of random places and radii: the strips' runs, the
    // longitudes inside the circle taken whole, the points just inside and just outside the edge
    fc.assert(
      fc.property(
        fc.double({ min: -85, max: 85, noNaN: true }),
        fc.double({ min: -179, max: 179, noNaN: true }),
        fc.double({ min: 50, max: 400_000, noNaN: true }),
        fc.integer({ min: 1, max: 2 ** 30 }),
        (lat, lon, metres, seed) => {
          const points = new SearchIndex();
          points.declareMapping({ dynamic: 'true', properties: { p: { type: 'geo_point' } } });
          let x = seed;
          const next = () => (x = (Math.imul(x, 1664525) + 1013904223) >>> 0) / 2 ** 32;
          const degrees = (metres / 6_371_008.7714) * (180 / Math.PI);
          const expected: string[] = [];
          const key = distanceQuerySortKey(metres);
          for (let i = 0; i < 300; i++) {
            // a point at 0 to 1.3 radii in any direction (a third of them within 1% of the edge)
            const angle = next() * 2 * Math.PI;
            const reach = i % 3 === 0 ? 0.99 + next() * 0.02 : next() * 1.3;
            const pLat = Math.max(-90, Math.min(90, lat + reach * degrees * Math.sin(angle)));
            let pLon = lon + (reach * degrees * Math.cos(angle)) / Math.max(0.05, Math.cos((lat * Math.PI) / 180));
            pLon = ((((pLon + 180) % 360) + 360) % 360) - 180;
            points.put(`p${i}`, { p: { lat: pLat, lon: pLon } });
            const qLat = decodeLatitude(encodeLatitude(pLat));
            const qLon = decodeLongitude(encodeLongitude(pLon));
            if (haversinSortKey(qLat, qLon, lat, lon) <= key) expected.push(`p${i}`);
          }
          const found = points.search({ query: { geo_distance: { distance: metres, p: { lat, lon } } }, from: 0, size: 400 }).hits.map((h) => h._id);
          expect(found.sort()).toEqual(expected.sort());
        },
      ),
      { numRuns: 300, seed: 42 },
    );
  });

  it('matches points exactly on the circle, near the poles and across the antimeridian, few matches in a large index or many', () => {
    // the radius is a point's own distance (it lies on the circle); a large index of far points makes
    // the matches few (sorted as a list), a small one makes them many (a bitset); documents with several points count once
    fc.assert(
      fc.property(
        fc.double({ min: -89.99, max: 89.99, noNaN: true }),
        fc.double({ min: -180, max: 180, noNaN: true }),
        fc.double({ min: 5, max: 300_000, noNaN: true }),
        fc.boolean(),
        fc.integer({ min: 1, max: 2 ** 30 }),
        (lat, lon, reach, crowded, seed) => {
          const points = new SearchIndex();
          points.declareMapping({ dynamic: 'true', properties: { p: { type: 'geo_point' } } });
          let x = seed;
          const next = () => (x = (Math.imul(x, 1664525) + 1013904223) >>> 0) / 2 ** 32;
          const wrap = (l: number) => ((((l + 180) % 360) + 360) % 360) - 180;
          const degrees = (reach / 6_371_008.7714) * (180 / Math.PI);
          const near = (): [number, number] => {
            const angle = next() * 2 * Math.PI;
            const r = next() * 1.5 * degrees;
            const pLat = Math.max(-90, Math.min(90, lat + r * Math.sin(angle)));
            return [decodeLatitude(encodeLatitude(pLat)), decodeLongitude(encodeLongitude(wrap(lon + (r * Math.cos(angle)) / Math.max(0.01, Math.cos((lat * Math.PI) / 180)))))];
          };
          const all: [number, number][][] = [];
          for (let i = 0; i < 40; i++) all.push(i % 5 === 0 ? [near(), near(), near()] : [near()]);
          // the circle passes through a point of the second document (whose key is within a rounding
          // of the radius's: inside or not as Lucene's GeoUtils.distanceQuerySortKey decides)
          const [onLat, onLon] = all[1][0];
          const metres = haversinMeters(onLat, onLon, lat, lon);
          fc.pre(metres > 0);
          if (!crowded) for (let i = 0; i < 3000; i++) all.push([[-lat * next(), wrap(lon + 180 + (next() - 0.5) * 40)]]);
          const key = distanceQuerySortKey(metres);
          const expected: string[] = [];
          all.forEach((doc, i) => {
            points.put(`d${i}`, { p: doc.map(([pLat, pLon]) => ({ lat: pLat, lon: pLon })) });
            if (doc.some(([pLat, pLon]) => haversinSortKey(pLat, pLon, lat, lon) <= key)) expected.push(`d${i}`);
          });
          const result = points.search({ query: { geo_distance: { distance: metres, p: { lat, lon } } }, from: 0, size: 100 });
          expect(result.hits.map((h) => h._id).sort()).toEqual(expected.sort());
          expect(result.total).toBe(expected.length);
        },
      ),
      { numRuns: 120, seed: 19 },
    );
  });
});
