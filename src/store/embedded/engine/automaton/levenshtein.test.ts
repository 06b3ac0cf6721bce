import fc from 'fast-check';
import { TooComplexError } from './budget';
import { compileLevenshtein, compileLevenshteinSteps, forgetSteps } from './levenshtein';
import { Budget } from '../budget/budget';

const options = (maxEdits: number, transpositions = true, prefixLength = 0) => ({ maxEdits, prefixLength, transpositions, maxStates: 100_000 });

/** The reference: edit distance over code points, as the optimal string alignment when `transpositions`. */
function editDistance(a: string, b: string, transpositions: boolean): number {
  const x = Array.from(a);
  const y = Array.from(b);
  const d: number[][] = Array.from({ length: x.length + 1 }, (_, i) => Array.from({ length: y.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= x.length; i++) {
    for (let j = 1; j <= y.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (x[i - 1] === y[j - 1] ? 0 : 1));
      if (transpositions && i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[x.length][y.length];
}

/** What the automaton should say of `term`: its distance within maxEdits with the prefix kept, else -1. */
function expected(word: string, term: string, maxEdits: number, transpositions: boolean, prefixLength: number): number {
  const w = Array.from(word);
  const t = Array.from(term);
  const p = Math.min(prefixLength, w.length);
  if (t.length < p || t.slice(0, p).join('') !== w.slice(0, p).join('')) return -1;
  const d = editDistance(w.slice(p).join(''), t.slice(p).join(''), transpositions);
  return d <= maxEdits ? d : -1;
}

describe('compileLevenshtein', () => {
  it('accepts the terms within the edits, and tells their distance', () => {
    const a = compileLevenshtein('france', options(2));
    expect(a.distance('france')).toBe(0);
    expect(a.distance('frnace')).toBe(1); // a swap is one edit
    expect(a.distance('frane')).toBe(1);
    expect(a.distance('fraance')).toBe(1);
    expect(a.distance('grance')).toBe(1);
    expect(a.distance('fance')).toBe(1);
    expect(a.distance('frence')).toBe(1);
    expect(a.distance('frncae')).toBe(2);
    expect(a.distance('finance')).toBe(2);
    expect(a.distance('franceee')).toBe(2);
    expect(a.distance('fr')).toBe(-1);
    expect(a.distance('germany')).toBe(-1);
    expect(a.run('frnace')).toBe(true);
    expect(a.run('germany')).toBe(false);
    expect(a.wordLength).toBe(6);
  });

  it('without transpositions a swap is two edits (classic Levenshtein)', () => {
    const a = compileLevenshtein('france', options(1, false));
    expect(a.distance('frnace')).toBe(-1);
    expect(compileLevenshtein('france', options(2, false)).distance('frnace')).toBe(2);
  });

  it('keeps the prefix exact, and a prefix longer than the word is the whole word', () => {
    const a = compileLevenshtein('france', options(1, true, 2));
    expect(a.distance('frnace')).toBe(1);
    expect(a.distance('rfance')).toBe(-1);
    expect(a.distance('grance')).toBe(-1);
    const whole = compileLevenshtein('abc', options(1, true, 10));
    expect(whole.distance('abc')).toBe(0);
    expect(whole.distance('abcd')).toBe(1);
    expect(whole.distance('ab')).toBe(-1);
  });

  it('0 edits is the word itself; an empty word accepts up to maxEdits characters', () => {
    const exact = compileLevenshtein('abc', options(0));
    expect(exact.distance('abc')).toBe(0);
    expect(exact.run('abd')).toBe(false);
    const empty = compileLevenshtein('', options(2));
    expect(['', 'a', 'zz', 'zzz'].map((t) => empty.distance(t))).toEqual([0, 1, 2, -1]);
  });

  it('counts code points: a surrogate pair is one character, a lone surrogate another', () => {
    const a = compileLevenshtein('a😀b', options(1));
    expect(a.wordLength).toBe(3);
    expect(a.distance('ab')).toBe(1);
    expect(a.distance('a😁b')).toBe(1);
    expect(a.distance('a\ud83db')).toBe(1);
    expect(a.distance('a\ud83d\ude00\ude00b')).toBe(1);
  });

  it('agrees with the edit distance on random words and terms (property)', () => {
    const text = fc.array(fc.constantFrom('a', 'b', 'c', 'd', 'é', '😀'), { maxLength: 7 }).map((cs) => cs.join(''));
    fc.assert(
      fc.property(text, fc.array(text, { maxLength: 20 }), fc.integer({ min: 0, max: 2 }), fc.boolean(), fc.integer({ min: 0, max: 3 }), (word, terms, maxEdits, transpositions, prefixLength) => {
        const a = compileLevenshtein(word, options(maxEdits, transpositions, prefixLength));
        for (const term of terms) {
          const want = expected(word, term, maxEdits, transpositions, prefixLength);
          expect(a.distance(term)).toBe(want);
          expect(a.run(term)).toBe(want >= 0);
        }
      }),
      { numRuns: 400, seed: 20251201 },
    );
  });

  it('stays a few dozen states per character, and refuses a word past maxStates', () => {
    const word = 'abcdefghijklmnopqrstuvwxyz'.repeat(4);
    const a = compileLevenshtein(word, options(2));
    expect(a.size).toBeLessThan(60 * word.length);
    expect(() => compileLevenshtein(word, { ...options(2), maxStates: 1000 })).toThrow(TooComplexError);
  });

  it('pauses within a search budget when its slice is over', () => {
    let now = 0;
    const budget = new Budget(Infinity, 1, () => (now += 10)); // every check finds its slice over
    const steps = compileLevenshteinSteps('abcdefghijklmnopqrstuvwxyz'.repeat(8), options(2), budget);
    let pauses = 0;
    let next = steps.next();
    for (; !next.done; next = steps.next()) {
      pauses++;
      budget.startSlice();
    }
    expect(pauses).toBeGreaterThan(1);
    expect(next.value.distance('abcdefghijklmnopqrstuvwxyz'.repeat(8))).toBe(0);
  });

  it('makes the same automaton whatever the steps remembered from other words, or forgotten while it pauses', () => {
    const word = 'abcdefghijklmnopqrstuvwxyz'.repeat(3);
    const shape = (a: ReturnType<typeof compileLevenshtein>) => JSON.stringify(a, (_, v) => (ArrayBuffer.isView(v) ? Array.from(v as Uint8Array) : v));
    forgetSteps();
    const fresh = shape(compileLevenshtein(word, options(2)));
    for (const other of ['abdcefgh', 'zyxwvuts', word.slice(5)]) compileLevenshtein(other, options(2));
    expect(shape(compileLevenshtein(word, options(2)))).toBe(fresh);
    let now = 0;
    const budget = new Budget(Infinity, 1, () => (now += 10));
    const steps = compileLevenshteinSteps(word, options(2), budget);
    let next = steps.next();
    for (let pauses = 0; !next.done; next = steps.next(), pauses++) {
      if (pauses % 2 === 0) forgetSteps();
      compileLevenshtein(['aab', 'qwertyuiop', 'abba', 'x'][pauses % 4], options(pauses % 3)); // numbers other states meanwhile
      budget.startSlice();
    }
    expect(shape(next.value)).toBe(fresh);
  });

  it('refuses edits outside 0..2', () => {
    expect(() => compileLevenshtein('abc', options(3))).toThrow(RangeError);
    expect(() => compileLevenshtein('abc', options(-1))).toThrow(RangeError);
  });
});
