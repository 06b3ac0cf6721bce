import fc from 'fast-check';
import { conjunction, disjunction, disjunctionMax, exclude, requiredOptional } from './combine';
import { Matches } from './matches';

const f = Math.fround;

/** A random result: documents 0-40 with float scores, as a list, or a constant-score bitset. */
const resultArb = fc.tuple(fc.uniqueArray(fc.integer({ min: 0, max: 40 }), { maxLength: 20 }), fc.boolean(), fc.float({ min: 0, max: 10, noNaN: true })).map(([docs, asBits, constant]) => {
  const sorted = docs.sort((a, b) => a - b);
  if (asBits) {
    const bits = new Uint32Array(2);
    for (const d of sorted) bits[d >>> 5] |= 1 << (d & 31);
    return Matches.bits(bits, sorted.length, f(constant));
  }
  return Matches.list(Int32Array.from(sorted), sorted.length, Float32Array.from(sorted.map((d) => f(constant + d / 7))));
});

/** doc -> score, read the naive way. */
function asMap(m: Matches): Map<number, number> {
  const list = m.toList();
  const out = new Map<number, number>();
  for (let i = 0; i < list.size; i++) out.set((list.docs as Int32Array)[i], list.scoreAt(i));
  return out;
}

describe('combining results', () => {
  it('intersects, summing the scoring clauses in double in order', () => {
    fc.assert(
      fc.property(fc.array(resultArb, { minLength: 1, maxLength: 4 }), fc.nat(), (required, pick) => {
        const scored = required.filter((_, i) => (pick >> i) & 1);
        const maps = required.map(asMap);
        const expected = new Map<number, number>();
        for (const doc of maps[0].keys()) {
          if (!maps.every((m) => m.has(doc))) continue;
          let sum = 0;
          for (const s of scored) sum += asMap(s).get(doc) as number;
          expected.set(doc, f(sum));
        }
        expect(asMap(conjunction(required, scored, true))).toEqual(expected);
        expect([...asMap(conjunction(required, scored, false)).keys()]).toEqual([...expected.keys()]);
      }),
    );
  });

  it('unites with a minimum number of clauses, in any number of lists', () => {
    fc.assert(
      fc.property(fc.array(resultArb, { minLength: 1, maxLength: 7 }), fc.integer({ min: 1, max: 3 }), (lists, min) => {
        const sums = new Map<number, number>();
        const counts = new Map<number, number>();
        for (const l of lists) {
          for (const [doc, score] of asMap(l)) {
            sums.set(doc, (sums.get(doc) ?? 0) + score);
            counts.set(doc, (counts.get(doc) ?? 0) + 1);
          }
        }
        const expected = new Map([...sums].filter(([doc]) => (counts.get(doc) as number) >= min).sort((a, b) => a[0] - b[0]).map(([doc, sum]) => [doc, f(sum)]));
        expect(asMap(disjunction(lists, min, true))).toEqual(expected);
        expect([...asMap(disjunction(lists, min, false)).keys()]).toEqual([...expected.keys()]);
      }),
    );
  });

  it('excludes, adds optional scores in float, and takes disjunction maxima', () => {
    fc.assert(
      fc.property(resultArb, fc.array(resultArb, { maxLength: 3 }), resultArb, fc.boolean(), (main, prohibited, opt, both) => {
        const banned = new Set(prohibited.flatMap((p) => [...asMap(p).keys()]));
        expect(asMap(exclude(main, prohibited))).toEqual(new Map([...asMap(main)].filter(([doc]) => !banned.has(doc))));
        const o = asMap(opt);
        const expectedReqOpt = new Map<number, number>();
        for (const [doc, score] of asMap(main)) {
          if (o.has(doc)) expectedReqOpt.set(doc, f(score + (o.get(doc) as number)));
          else if (!both) expectedReqOpt.set(doc, score);
        }
        expect(asMap(requiredOptional(main, opt, both))).toEqual(expectedReqOpt);
        const subs = [main, opt, ...prohibited];
        const max = new Map<number, number>();
        const others = new Map<number, number>();
        for (const sub of subs) {
          for (const [doc, score] of asMap(sub)) {
            const current = max.get(doc);
            if (current === undefined) {
              max.set(doc, score);
              others.set(doc, 0);
            } else if (score >= current) {
              others.set(doc, (others.get(doc) as number) + current);
              max.set(doc, score);
            } else {
              others.set(doc, (others.get(doc) as number) + score);
            }
          }
        }
        const tie = f(0.3);
        const expectedMax = new Map([...max].sort((a, b) => a[0] - b[0]).map(([doc, m]) => [doc, f(m + (others.get(doc) as number) * tie)]));
        expect(asMap(disjunctionMax(subs, tie, true))).toEqual(expectedMax);
      }),
    );
  });
});
