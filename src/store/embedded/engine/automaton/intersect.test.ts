import fc from 'fast-check';
import { compareUtf8 } from '../strings';
import { CHECKPOINT_INTERVAL, intersectSorted, SortedTerms, WalkStop } from './intersect';
import { compilePrefix, compileRegexp, compileWildcard } from './patterns';
import { RunAutomaton } from './runAutomaton';

/** Terms from an array, counting how many times a term is read. */
function dictionary(terms: readonly string[]): SortedTerms & { reads: number } {
  return {
    size: terms.length,
    reads: 0,
    term(i: number) {
      this.reads++;
      return terms[i];
    },
  };
}

/**
 * 16^5 = 1,048,576 five-letter terms over a..p, in order, computed from their index: a large
 * dictionary without the memory.
 */
function generated(): SortedTerms & { reads: number } {
  return {
    size: 16 ** 5,
    reads: 0,
    term(i: number) {
      this.reads++;
      let s = '';
      for (let k = 4; k >= 0; k--) s += String.fromCharCode(0x61 + ((i >> (4 * k)) & 15));
      return s;
    },
  };
}

/** The same, read as code units (as the index's sorted dictionaries are, sortedTerms.ts codeUnits), counting the strings made. */
function unitsDictionary(terms: readonly string[]): SortedTerms & { reads: number } {
  return {
    ...dictionary(terms),
    codeUnits(i: number, out: Uint16Array) {
      const term = terms[i];
      if (term.length <= out.length) for (let k = 0; k < term.length; k++) out[k] = term.charCodeAt(k);
      return term.length;
    },
  };
}

function intersect(run: RunAutomaton, terms: SortedTerms): number[] {
  const visited: number[] = [];
  const count = intersectSorted(run, terms, (i) => visited.push(i));
  expect(count).toBe(visited.length);
  return visited;
}

/** Characters whose code point order and UTF-16 order differ, and lone surrogates. */
const chars = ['a', 'b', 'c', 'f', 'r', 'é', '\ue000', '\uffff', '😀', '😂', '\ud800', '\udc00', '\ud83d'];
const termArb = fc.array(fc.constantFrom(...chars), { maxLength: 5 }).map((cs) => cs.join(''));
const sortedTermsArb = fc.uniqueArray(termArb, { maxLength: 80 }).map((terms) => terms.sort(compareUtf8));
const atom = fc.constantFrom(...chars, '.', '[a-c]', '[^a]', '[\ue000-😀]', '[\ud800-\udfff]', '@', '()');
const regexpArb: fc.Arbitrary<string> = fc.letrec<{ e: string }>((tie) => ({
  e: fc.oneof(
    { depthSize: 'small' },
    atom,
    fc.tuple(tie('e'), tie('e')).map(([x, y]) => x + y),
    fc.tuple(tie('e'), tie('e')).map(([x, y]) => `(${x}|${y})`),
    tie('e').map((x) => `(${x})*`),
    tie('e').map((x) => `~(${x})`),
  ),
})).e;
const automatonArb: fc.Arbitrary<[string, RunAutomaton]> = fc.oneof(
  regexpArb.map((p): [string, RunAutomaton] => [`regexp ${p}`, compileRegexp(p)]),
  termArb.map((p): [string, RunAutomaton] => [`prefix ${p}`, compilePrefix(p)]),
  fc.array(fc.constantFrom('a', 'b', '*', '?', '😀', '\ue000'), { maxLength: 5 }).map((cs): [string, RunAutomaton] => [`wildcard ${cs.join('')}`, compileWildcard(cs.join(''))]),
);

describe('intersectSorted', () => {
  test('visits exactly the terms the automaton accepts, in order (random dictionaries and patterns)', () => {
    fc.assert(
      fc.property(automatonArb, sortedTermsArb, ([, run], terms) => {
        const expected = terms.flatMap((term, i) => (run.run(term) ? [i] : []));
        expect(intersect(run, dictionary(terms))).toEqual(expected);
      }),
      { numRuns: 3000, seed: 42 },
    );
  });

  test('visits the same terms when it reads them as code units, long ones included, and makes no string but where it seeks or takes a block', () => {
    const long = fc.tuple(termArb, fc.constantFrom('', 'a'.repeat(70), '😀'.repeat(40))).map(([a, b]) => a + b);
    fc.assert(
      fc.property(automatonArb, fc.uniqueArray(fc.oneof(termArb, long), { maxLength: 80 }), ([, run], unsorted) => {
        const terms = unsorted.sort(compareUtf8);
        const expected = terms.flatMap((term, i) => (run.run(term) ? [i] : []));
        expect(intersect(run, unitsDictionary(terms))).toEqual(expected);
      }),
      { numRuns: 2000, seed: 43 },
    );
    // a pattern that neither dies nor accepts every suffix reads every term, and makes none of their strings
    const names = Array.from({ length: 3000 }, (_, i) => `${'a'.repeat(40)}${i}`).sort(compareUtf8);
    const terms = unitsDictionary(names);
    expect(intersect(compileWildcard('*a*a*a*b'), terms)).toEqual([]);
    expect(terms.reads).toBe(0);
  });

  test('edge cases: no terms, nothing matches, everything matches', () => {
    expect(intersect(compileRegexp('a.*'), dictionary([]))).toEqual([]);
    expect(intersect(compileRegexp('#'), dictionary(['a', 'b']))).toEqual([]);
    const all = dictionary(['', 'a', 'b']);
    expect(intersect(compileRegexp('.*'), all)).toEqual([0, 1, 2]);
    expect(all.reads).toBe(0); // every term matches: none is read
  });

  test('a prefix pattern over a million terms reads only the terms near the prefix', () => {
    const terms = generated();
    expect(terms.term(0)).toBe('aaaaa');
    expect(terms.term(terms.size - 1)).toBe('ppppp');
    terms.reads = 0;
    for (const run of [compileRegexp('fab.*'), compilePrefix('fab'), compileWildcard('fab*')]) {
      terms.reads = 0;
      const visited = intersect(run, terms);
      expect(visited).toHaveLength(256);
      expect(terms.term(visited[0])).toBe('fabaa');
      expect(terms.term(visited[255])).toBe('fabpp');
      expect(terms.reads).toBeLessThan(200);
    }
  });

  test('an automaton that dies early seeks past whole blocks', () => {
    const terms = generated();
    const visited = intersect(compileRegexp('[ac]b[a-c]{2}p'), terms);
    expect(visited.map((i) => terms.term(i))).toEqual(
      ['a', 'c'].flatMap((x) => ['a', 'b', 'c'].flatMap((y) => ['a', 'b', 'c'].map((z) => `${x}b${y}${z}p`))),
    );
    terms.reads = 0;
    intersect(compileRegexp('[ac]b[a-c]{2}p'), terms);
    expect(terms.reads).toBeLessThan(1000);
  });

  test('.*a.*b.* reads every term once', () => {
    const terms = generated();
    const visited = intersect(compileRegexp('.*a.*b.*'), terms);
    expect(terms.reads).toBeLessThan(terms.size + 1000);
    const accepted = new Set(visited);
    for (let i = 0; i < terms.size; i += 997) expect(accepted.has(i)).toBe(/a.*b/.test(terms.term(i)));
  });

  test('a walk stopped early (WalkStop), even one told to stop at once, and gone on with from where it stopped visits what one walk visits', () => {
    fc.assert(
      fc.property(sortedTermsArb, regexpArb, fc.integer({ min: 0, max: 7 }), (sorted, pattern, every) => {
        const run = compileRegexp(pattern);
        const expected = intersect(run, dictionary(sorted));
        const visited: number[] = [];
        for (let from = 0; from < sorted.length; ) {
          const rest = dictionary(sorted.slice(from));
          let asked = 0;
          const stop: WalkStop = { due: () => ++asked > every, at: -1 };
          intersectSorted(run, rest, (i) => visited.push(from + i), undefined, stop);
          expect(stop.at).toBeGreaterThan(0);
          from += stop.at;
        }
        expect(visited).toEqual(expected);
      }),
      { seed: 29, numRuns: 300 },
    );
  });

  test('checkpoint is called about every 1,000 terms; what it throws goes through', () => {
    const terms = generated();
    let calls = 0;
    intersectSorted(compileRegexp('.*p.*'), terms, () => {}, () => calls++);
    expect(calls).toBeGreaterThan(terms.size / CHECKPOINT_INTERVAL - 1);
    expect(calls).toBeLessThan((3 * terms.size) / CHECKPOINT_INTERVAL);
    const visited: number[] = [];
    let checks = 0;
    expect(() =>
      intersectSorted(
        compileRegexp('.*'),
        terms,
        (i) => visited.push(i),
        () => {
          if (++checks === 3) throw new Error('time budget exceeded');
        },
      ),
    ).toThrow('time budget exceeded');
    expect(visited).toEqual(Array.from({ length: visited.length }, (_, i) => i)); // a prefix, in order
    expect(visited.length).toBeGreaterThan(2000);
    expect(visited.length).toBeLessThan(4000);
  });
});
