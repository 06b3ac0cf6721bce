import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FieldIndex } from '../fieldIndex';
import { InvertedIndex } from '../invertedIndex';
import { READS_PER_CHECK } from '../budget/checkEvery';
import { SpillTarget, diskReads } from '../persist/diskFile';
import { IndexMapping } from '../mapping';
import { LQuery, LeafQuery } from '../lucene/query';
import { Budget } from '../budget/budget';
import { compilePrefix, compileWildcard } from '../automaton';
import { FIRST_PATTERN_CHUNK, MIN_PATTERN_CHUNK, acceptedTerms, fieldExists, idsIn, inRange, pointEquals, pointRange, termRange, termsAccepted, termsIn } from './leaves';

const mapping = new IndexMapping({ keyword: ['k'] });
const index = new InvertedIndex();
for (const [id, doc] of [
  ['a', { k: ['x', 'y'], n: 1 }],
  ['b', { k: 'y', n: [2, 3] }],
  ['c', { n: 3 }],
] as const) {
  index.addSource(id, doc, mapping);
}
const docs = (q: LQuery) => (q.type === 'leaf' ? [...q.docs(index)].sort() : q.type);

describe('constant-score leaves', () => {
  it('compare ranges', () => {
    expect(inRange(2, { lower: 1, includeLower: false, upper: 2, includeUpper: true })).toBe(true);
    expect(inRange(1, { lower: 1, includeLower: false, upper: null, includeUpper: true })).toBe(false);
  });

  it('read points', () => {
    expect(docs(pointEquals('n', 3))).toEqual([1, 2]);
    expect(docs(pointRange('n', { lower: 2, includeLower: true, upper: 3, includeUpper: false }))).toEqual([1]);
    expect(docs(pointRange('n', { lower: 3, includeLower: false, upper: 3, includeUpper: true }))).toBe('matchNone');
    expect(docs(pointEquals('missing', 1))).toEqual([]);
  });

  it('read terms', () => {
    expect(docs(termsIn('k', ['y', 'x']))).toEqual([0, 1]);
    expect(docs(termsIn('k', []))).toBe('matchNone');
    expect(docs(termRange('k', 'x', false, null, true))).toEqual([0, 1]);
    expect(docs(termsAccepted('k', 'test', compilePrefix('x')))).toEqual([0]);
  });

  it('read ids and presence', () => {
    expect(docs(idsIn(['c', 'a', 'zz']))).toEqual([0, 2]);
    expect(docs(fieldExists('k'))).toEqual([0, 1]);
  });
});

describe('a large terms set', () => {
  it('is made distinct and written as its key a chunk at a time, as a small set is at once', () => {
    const terms = Array.from({ length: 10_000 }, (_, i) => `t${i % 7000}`);
    const query = termsIn('k', terms) as LeafQuery;
    const steps = query.settle!(new Budget(Infinity, 0, () => 0)); // every chunk ends a slice
    let pauses = 0;
    while (!steps.next().done) pauses++;
    expect(pauses).toBeGreaterThan(1);
    const distinct = [...new Set(terms)];
    expect(query.key).toBe(`terms:${JSON.stringify(['k', distinct])}`);
    expect(query.terms!.terms).toEqual(distinct);
    // read without settling first: the same, at once
    expect((termsIn('k', terms) as LeafQuery).key).toBe(query.key);
    expect((termsIn('k', ['a', 'b', 'a']) as LeafQuery).settle).toBeUndefined();
  });
});

describe("a pattern's walk over a term dictionary", () => {
  it('checks the slice every 512 terms, and finds the same terms as at once', () => {
    const big = new InvertedIndex();
    for (let i = 0; i < 5000; i++) big.addSource(`d${i}`, { k: `term${String(i).padStart(4, '0')}` }, mapping);
    const field = big.field('k')!;
    const automaton = compilePrefix('term1');
    const steps = acceptedTerms(field, automaton, new Budget(Infinity, 0, () => 0)); // every check ends a slice
    let pauses = 0;
    let next = steps.next();
    for (; !next.done; next = steps.next()) pauses++;
    expect(pauses).toBeGreaterThanOrEqual(Math.ceil(5000 / 512) - 1); // (and one while the sorted view is brought up to date)
    const atOnce = acceptedTerms(field, automaton, new Budget(Infinity, Infinity)).next();
    expect(atOnce.done).toBe(true);
    expect(next.value).toEqual(atOnce.value);
    expect((next.value as number[]).length).toBe(1000); // term1000 to term1999
  });

  it('reads FIRST_PATTERN_CHUNK terms before its first check, then more while they are quick to visit', () => {
    const big = new InvertedIndex();
    for (let i = 0; i < 5000; i++) big.addSource(`d${i}`, { k: `term${String(i).padStart(4, '0')}` }, mapping);
    const field = big.field('k')!;
    const sorted = field.sortedTerms();
    const read = jest.spyOn(sorted, 'codeUnits');
    const budget = new Budget(Infinity, 8, () => 0); // no time passes: every chunk is quick
    jest.spyOn(budget, 'due').mockReturnValue(true); // every check ends a slice
    const steps = acceptedTerms(field, compileWildcard('*7'), budget);
    const readAt: number[] = [];
    for (let next = steps.next(); !next.done; next = steps.next()) readAt.push(read.mock.calls.length);
    expect(readAt[0]).toBe(FIRST_PATTERN_CHUNK);
    expect(readAt[1] - readAt[0]).toBe(2 * FIRST_PATTERN_CHUNK);
    expect(read.mock.calls.length).toBe(5000); // (every term: none can be skipped for '*7')
  });

  it('reads about READS_PER_CHECK terms from disk between two checks when their rests are spilled, however many a chunk holds, and finds the same terms', () => {
    const dir = mkdtempSync(join(tmpdir(), 'leaves-'));
    try {
      const spilled = new FieldIndex('k', 'keyword', undefined, new SpillTarget(dir));
      const inMemory = new FieldIndex('k', 'keyword');
      for (let i = 0; i < 5000; i++) {
        const name = `${'a'.repeat(40)}${(i * 7919) % 5000}`; // (bench:abuse's names: their rests go to disk)
        spilled.add(i, [name]);
        inMemory.add(i, [name]);
      }
      spilled.sortedTerms();
      const automaton = compileWildcard('*a1*');
      const budget = new Budget(Infinity, 8, () => 0); // no time passes: only the reads shrink the chunks
      jest.spyOn(budget, 'due').mockReturnValue(true); // every check ends a slice
      const steps = acceptedTerms(spilled, automaton, budget);
      const readsAt = [diskReads()];
      let next = steps.next();
      for (; !next.done; next = steps.next()) readsAt.push(diskReads());
      readsAt.push(diskReads());
      const between = readsAt.slice(1).map((n, i) => n - readsAt[i]);
      // (a chunk stops before its next term once it has made READS_PER_CHECK reads: a term is one read, a seek a few)
      expect(Math.max(...between)).toBeLessThanOrEqual(READS_PER_CHECK + 16);
      expect(between.reduce((a, b) => a + b, 0)).toBeGreaterThan(1000); // (the walk read its terms from disk)
      expect(next.value).toEqual(acceptedTerms(inMemory, automaton, new Budget(Infinity, Infinity)).next().value);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('visits fewer terms between two checks while they are slow to visit, and finds the same terms', () => {
    const big = new InvertedIndex();
    for (let i = 0; i < 5000; i++) big.addSource(`d${i}`, { k: `term${String(i).padStart(4, '0')}` }, mapping);
    const field = big.field('k')!;
    const automaton = compilePrefix('term1');
    let now = 0;
    // each look at the clock 1 ms later: every chunk takes a whole slice of 1 ms, so chunks shrink to MIN_PATTERN_CHUNK
    const steps = acceptedTerms(field, automaton, new Budget(Infinity, 1, () => now++));
    let pauses = 0;
    let next = steps.next();
    for (; !next.done; next = steps.next()) pauses++;
    expect(pauses).toBeGreaterThanOrEqual(Math.floor((5000 - 1024) / MIN_PATTERN_CHUNK));
    const atOnce = acceptedTerms(field, automaton, new Budget(Infinity, Infinity)).next();
    expect(next.value).toEqual(atOnce.value);
  });
});
