/**
 * Differential test against the real Lucene 8.7 (GeoOracle.java): on seeded random points, the
 * engine's quantization (GeoEncodingUtils), arc distances (SloppyMath.haversinMeters, Elasticsearch's
 * GeoUtils.arcDistance), `geo_distance` (LatLonPoint.newDistanceQuery) and `geo_bounding_box`
 * (LatLonPoint.newBoxQuery, dateline crossing included) give Lucene's results bit for bit. Needs
 * java, javac and the Lucene 8 jars (Debian: `apt-get install -y default-jdk-headless
 * liblucene8-java`); skipped with a message otherwise.
 */
import { join } from 'node:path';
import { javaOracle } from '../../automaton/testing/luceneOracle';
import { SearchIndex } from '../../searchIndex';
import { quantize } from '../geoPoint';
import { haversinMeters } from '../sloppyMath';

const oracle = javaOracle(join(__dirname, 'GeoOracle.java'), ['core']);
const available = 'run' in oracle;
if (!available) console.warn(`Skipping the geo Lucene differential test: ${oracle.missing}.`);
const describeWithLucene = available ? describe : describe.skip;

function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => ((state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

const bits = (value: number) => {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, value);
  return view.getBigUint64(0).toString(16);
};

describeWithLucene('geo against Lucene 8.7', () => {
  afterAll(() => 'run' in oracle && oracle.close());

  it('quantizes, measures and matches as Lucene', () => {
    if (!('run' in oracle)) return;
    const next = random(20251125);
    // points clustered around a few places (near the dateline and the poles too), some documents without one
    const centres = [
      [48.85, 2.35],
      [-33.9, 151.2],
      [64.1, -179.9],
      [0, 0],
      [89.9, 10],
    ];
    const points: ([number, number] | null)[] = [];
    for (let i = 0; i < 400; i++) {
      if (i % 17 === 0) {
        points.push(null);
        continue;
      }
      const [lat, lon] = centres[i % centres.length];
      const p: [number, number] = [Math.max(-90, Math.min(90, lat + (next() - 0.5) * 4)), lon + (next() - 0.5) * 4];
      if (p[1] > 180) p[1] -= 360;
      if (p[1] < -180) p[1] += 360;
      points.push(p);
    }
    const distances: [number, number, number][] = [];
    const boxes: [number, number, number, number][] = [];
    for (let i = 0; i < 30; i++) {
      const [lat, lon] = centres[i % centres.length];
      const wrap = (x: number) => (x < -180 ? x + 360 : x > 180 ? x - 360 : x);
      distances.push([Math.min(90, lat + (next() - 0.5)), wrap(lon + (next() - 0.5)), 1000 + next() * 250_000]);
      boxes.push([lat - next() * 2, Math.min(90, lat + next() * 2), wrap(lon - next() * 2), wrap(lon + next() * 2)]);
    }
    boxes.push([60, 70, 179, -179]); // crosses the dateline
    const pairs = points.filter((p): p is [number, number] => p !== null).slice(0, 60);
    const requests = [
      ...distances.map(([lat, lon, r]) => `DIST ${lat} ${lon} ${r}`),
      ...boxes.map(([a, b, c, d]) => `BOX ${a} ${b} ${c} ${d}`),
      ...pairs.map((p, i) => `HAV ${p[0]} ${p[1]} ${pairs[(i * 7 + 3) % pairs.length][0]} ${pairs[(i * 7 + 3) % pairs.length][1]}`),
      ...pairs.map((p) => `ENC ${p[0]} ${p[1]}`),
    ];
    const answers = oracle.run([...points.map((p) => (p === null ? 'P' : `P ${p[0]} ${p[1]}`)), ...requests]);
    expect(answers).toHaveLength(requests.length);

    const index = new SearchIndex();
    index.declareMapping({ dynamic: 'true', properties: { p: { type: 'geo_point' } } });
    points.forEach((p, i) => index.put(String(i), p === null ? { other: 1 } : { p: { lat: p[0], lon: p[1] } }));
    const ids = (query: Record<string, unknown>) =>
      index
        .search({ query, from: 0, size: 1000 })
        .hits.map((h) => Number(h._id))
        .sort((a, b) => a - b)
        .join(',');
    let at = 0;
    for (const [lat, lon, r] of distances) expect([`DIST ${lat} ${lon} ${r}`, `=${ids({ geo_distance: { distance: r, p: { lat, lon } } })}`]).toEqual([requests[at], answers[at++]]);
    for (const [minLat, maxLat, minLon, maxLon] of boxes) {
      expect([requests[at], `=${ids({ geo_bounding_box: { p: { top: maxLat, bottom: minLat, left: minLon, right: maxLon } } })}`]).toEqual([requests[at], answers[at++]]);
    }
    pairs.forEach((p, i) => {
      const q = pairs[(i * 7 + 3) % pairs.length];
      expect([requests[at], bits(haversinMeters(p[0], p[1], q[0], q[1]))]).toEqual([requests[at], answers[at++]]);
    });
    for (const p of pairs) {
      const { lat, lon } = quantize({ lat: p[0], lon: p[1] });
      expect([requests[at], `${bits(lat)} ${bits(lon)}`]).toEqual([requests[at], answers[at++]]);
    }
  });
});
