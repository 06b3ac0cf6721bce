/**
 * bench:engine's index of points (issue 19 item 5): as many documents as the main corpus, each a
 * seeded `location` (a geo_point declared by mapping, spread over a 20 x 20 degree square around
 * Europe) and a `rank` (0 to n - 1), with the gateway's tenant field; and the queries compared on
 * it: `geo_distance` circles and `range` slices of `rank` selecting about the same share of the
 * documents (about 1%).
 */
import { SearchIndex } from '../../src/store/embedded/engine';

const QUERY_COUNT = 200;

function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => ((state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

/**
 * Circles of GEO_RADIUS around seeded centres inside the square, about 1% of its area each, as the
 * range slices select 1% of the ranks: a circle's longitudes span 1/cos(latitude) times its
 * latitudes (about 1.56 at 50 degrees), so 100 km (0.90 degrees of latitude) covers about 3.95 of
 * the 400 square degrees; 125 km, used until issue 19's geo work, covered 1.57% (1,572 matches
 * against the range's 1,000 at 100,000 documents).
 */
export const GEO_RADIUS = '100km';
const next = random(19);
export const CENTRES = Array.from({ length: QUERY_COUNT }, () => ({ lat: 42 + next() * 16, lon: -2 + next() * 16 }));
/** Slices of 1% of the ranks (of 100,000 documents; fewer at other sizes is fine for a ratio). */
export const RANGE_WIDTH = 1000;
export const RANGES = Array.from({ length: QUERY_COUNT }, (_, i) => (i * 997) % 99_000);

export function pointsIndex(size: number): SearchIndex {
  const index = new SearchIndex();
  index.declareMapping({ dynamic: 'true', properties: { location: { type: 'geo_point' }, rank: { type: 'long' } } });
  const place = random(7);
  for (let i = 0; i < size; i++) {
    index.put(`p${i}`, { rank: i, allowTenantIds: ['bench'], location: { lat: 40 + place() * 20, lon: -4 + place() * 20 } });
  }
  return index;
}
