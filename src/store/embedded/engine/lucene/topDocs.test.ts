import fc from 'fast-check';
import { Matches } from './matches';
import { Budget } from '../budget/budget';
import { SORTED_CHUNK, TopSortedCollector, collectSteps, topByScore, topSorted } from './topDocs';

describe('top hits', () => {
  it('keep the best k by score then index order, as a full sort does', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(0, 0.5, 1, 1.5, 2)), fc.integer({ min: 0, max: 12 }), (scores, k) => {
        const docs = Int32Array.from(scores.map((_, i) => i * 2));
        const m = Matches.list(docs, docs.length, Float32Array.from(scores));
        const full = [...docs].map((doc, i) => ({ doc, score: scores[i] })).sort((a, b) => b.score - a.score || a.doc - b.doc);
        expect(topByScore(m, k).map((h) => [h.doc, h.score])).toEqual(full.slice(0, k).map((h) => [h.doc, h.score]));
      }),
    );
  });

  it('take the first documents when every score is the same', () => {
    const bits = new Uint32Array(1);
    bits[0] = 0b10110;
    expect(topByScore(Matches.bits(bits, 3, 1), 2).map((h) => h.doc)).toEqual([1, 2]);
    expect(topByScore(Matches.list(Int32Array.of(3, 8), 2, null, 2), 5).map((h) => [h.doc, h.score])).toEqual([
      [3, 2],
      [8, 2],
    ]);
  });

  it('keep the first k by sort keys, after a search_after point', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 5 })), fc.integer({ min: 0, max: 8 }), fc.option(fc.integer({ min: 0, max: 5 })), (keys, k, after) => {
        const docs = Int32Array.from(keys.map((_, i) => i));
        const m = Matches.list(docs, docs.length, null, 0);
        const compare = (a: number[], b: number[]) => b[0] - a[0]; // descending
        const accept = after === null ? null : (ks: number[]) => compare(ks, [after]) > 0;
        const top = topSorted(m, k, 1, (doc, _score, out: number[]) => (out[0] = keys[doc]), compare, accept);
        const full = keys.map((key, doc) => ({ doc, key })).filter((h) => after === null || h.key < after).sort((a, b) => b.key - a.key || a.doc - b.doc);
        expect(top.map((h) => h.doc)).toEqual(full.slice(0, k).map((h) => h.doc));
      }),
    );
  });

  it('take a better hit into a full page in the place of the worst, making no hit object (a page of k holds the k it made), and keep what a sort keeps', () => {
    const n = 20_000;
    const keys = Array.from({ length: n }, (_, i) => (i * 7919) % n);
    const docs = Int32Array.from(keys.map((_, i) => i));
    const k = 500;
    const c = new TopSortedCollector<number>(k, 1, (doc, _score, out) => (out[0] = keys[doc]), (a, b) => a[0] - b[0], null);
    c.add(Matches.list(docs.subarray(0, k), k, null, 0), 0, k);
    const made = new Set(c.top());
    c.add(Matches.list(docs, n, null, 0), k, n);
    const top = c.top();
    expect(top.every((hit) => made.has(hit))).toBe(true);
    expect(top.map((hit) => hit.doc)).toEqual([...docs].sort((a, b) => keys[a] - keys[b]).slice(0, k));
  });

  it('put a sorted page in order a part at a time (pausing when the slice is over), as top() does', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 5 }), { maxLength: 1500 }), fc.integer({ min: 0, max: 1200 }), (keys, k) => {
        const docs = Int32Array.from(keys.map((_, i) => i));
        const m = Matches.list(docs, docs.length, null, 0);
        const collector = () => {
          const c = new TopSortedCollector<number>(k, 1, (doc, _score, out) => (out[0] = keys[doc]), (a, b) => b[0] - a[0], null);
          c.add(m, 0, docs.length);
          return c;
        };
        let now = 0;
        const steps = collector().topSteps(new Budget(Infinity, 0, () => now++)); // every look at the clock ends the slice
        let pauses = 0;
        let next = steps.next();
        for (; !next.done; next = steps.next()) pauses++;
        expect(next.value.map((h) => h.doc)).toEqual(collector().top().map((h) => h.doc));
        expect(pauses).toBe(Math.max(0, Math.ceil(Math.min(k, keys.length) / 256) - 1));
      }),
      { numRuns: 60 },
    );
  });

  it('collect a sorted page pausing every SORTED_CHUNK documents (a sift through a page of 10,000 is costly), keeping what collecting at once keeps', () => {
    const n = 5000;
    const keys = Array.from({ length: n }, (_, i) => (i * 7919) % 1009);
    const docs = Int32Array.from(keys.map((_, i) => i));
    const m = Matches.list(docs, docs.length, null, 0);
    const collector = () => new TopSortedCollector<number>(1000, 1, (doc, _score, out) => (out[0] = keys[doc]), (a, b) => a[0] - b[0], null);
    let now = 0;
    const sliced = collector();
    const steps = collectSteps(sliced, m, new Budget(Infinity, 0, () => now++)); // every look at the clock ends the slice
    let pauses = 0;
    while (!steps.next().done) pauses++;
    expect(pauses).toBe(Math.ceil(n / SORTED_CHUNK) - 1);
    expect(sliced.collected).toBe(n);
    expect(sliced.top().map((h) => h.doc)).toEqual(topSorted(m, 1000, 1, (doc, _score, out: number[]) => (out[0] = keys[doc]), (a, b) => a[0] - b[0], null).map((h) => h.doc));
  });
  it('a full page compared key by key keeps what comparing every key keeps, and reads a later key only when the ones before tie', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 9 })), { maxLength: 800 }), fc.integer({ min: 1, max: 300 }), (rows, k) => {
        const docs = Int32Array.from(rows.map((_, i) => i));
        const m = Matches.list(docs, docs.length, null, 0);
        // ascending, descending, ascending
        const order = [1, -1, 1];
        const compareAt = (j: number, a: number, b: number) => order[j] * (a - b);
        const compare = (a: number[], b: number[]) => compareAt(0, a[0], b[0]) || compareAt(1, a[1], b[1]) || compareAt(2, a[2], b[2]);
        const keysOf = (doc: number, _score: number, out: number[]) => {
          for (let j = 0; j < 3; j++) out[j] = rows[doc][j];
        };
        const reads = [0, 0, 0];
        const byKey = { key: (j: number, doc: number) => (reads[j]++, rows[doc][j]), compare: compareAt };
        const whole = new TopSortedCollector<number>(k, 3, keysOf, compare, null);
        const lazy = new TopSortedCollector<number>(k, 3, keysOf, compare, null, byKey);
        whole.add(m, 0, docs.length);
        lazy.add(m, 0, docs.length);
        expect(lazy.top()).toEqual(whole.top());
        expect(reads[1]).toBeLessThanOrEqual(reads[0]);
        expect(reads[2]).toBeLessThanOrEqual(reads[1]);
      }),
      { numRuns: 100 },
    );
  });
});
