import fc from 'fast-check';
import { TooComplexError, WorkBudget } from './budget';
import { buildDfa } from './build';
import { Dfa } from './dfa';
import { parseRegexp } from './regexpParser';
import { RunAutomaton } from './runAutomaton';
import { referenceMatch } from './testing/referenceMatcher';

const compile = (pattern: string, workLimit = 10000): RunAutomaton =>
  new RunAutomaton(buildDfa(parseRegexp(pattern), new WorkBudget(pattern, workLimit)), 'regexp', pattern);

/** Whether the DFA is deterministic and has sorted, disjoint ranges. */
function wellFormed(dfa: Dfa): boolean {
  return dfa.transitions.every((ts) => {
    for (let j = 0; j < ts.length; j += 3) {
      if (ts[j] > ts[j + 1] || ts[j + 2] < 0 || ts[j + 2] >= dfa.accept.length) return false;
      if (j > 0 && ts[j] <= ts[j - 2]) return false;
    }
    return true;
  });
}

/** Patterns over a small alphabet with every operator (all flags on). */
const atom = fc.constantFrom('a', 'b', 'c', '.', '[ab]', '[^a]', '[a-c]', '#', '@', '()', '"ab"', '<1-12>', '<05-20>', '\\d');
const patternArb: fc.Arbitrary<string> = fc.letrec<{ e: string }>((tie) => ({
  e: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    atom,
    fc.tuple(tie('e'), tie('e')).map(([x, y]) => x + y),
    fc.tuple(tie('e'), tie('e')).map(([x, y]) => `(${x}|${y})`),
    fc.tuple(tie('e'), tie('e')).map(([x, y]) => `(${x}&${y})`),
    tie('e').map((x) => `~(${x})`),
    fc.tuple(tie('e'), fc.constantFrom('*', '+', '?', '{2}', '{0,2}', '{1,}', '{2,1}')).map(([x, q]) => `(${x})${q}`),
  ),
})).e;
const textArb = fc.stringMatching(/^[abc0-9]{0,6}$/);

describe('buildDfa', () => {
  test('accepts exactly what the reference matcher accepts (random patterns and texts)', () => {
    fc.assert(
      fc.property(patternArb, fc.array(textArb, { maxLength: 12 }), (pattern, texts) => {
        const ast = parseRegexp(pattern);
        const dfa = buildDfa(ast, new WorkBudget(pattern, 10000));
        expect(wellFormed(dfa)).toBe(true);
        const run = new RunAutomaton(dfa, 'regexp', pattern);
        for (const text of ['', 'a', 'ab', '12', '007', ...texts]) expect([pattern, text, run.run(text)]).toEqual([pattern, text, referenceMatch(ast, text)]);
      }),
      { numRuns: 400, seed: 20240601 },
    );
  });

  test.each([
    ['a{2,4}', ['aa', 'aaa', 'aaaa'], ['', 'a', 'aaaaa']],
    ['a{0}', [''], ['a']],
    ['a{3,}', ['aaa', 'aaaaaaa'], ['aa']],
    ['a{3,2}', [], ['', 'aa', 'aaa']],
    ['(ab)+', ['ab', 'abab'], ['', 'aba']],
    ['(a*)*b', ['b', 'aab'], ['', 'a']],
    ['(a?){3}', ['', 'a', 'aaa'], ['aaaa']],
    ['~(a.*)', ['', 'b', 'ba'], ['a', 'ab']],
    ['.*a.*&.*b.*', ['ab', 'ba', 'xaxbx'], ['a', 'b', '']],
    ['#|a', ['a'], ['', '#']],
    ['#*', [], ['']], // Lucene: repeating the empty language gives it back
    ['(a&b)*c', [], ['c']],
    ['#?', [''], ['a']],
    ['(#){0,}', [], ['']],
    ['@', ['', 'anything'], []],
    ['<1-100>', ['1', '01', '007', '100', '0100'], ['0', '101', '', '1a']],
    ['<01-10>', ['01', '09', '10'], ['1', '001', '11', '00']],
    ['<0-0>', ['0'], ['', '1', '00']],
    ['<0-00>', ['0', '00', '000'], ['', '1']],
  ])('%s', (pattern, accepted, rejected) => {
    const run = compile(pattern);
    for (const text of accepted) expect([text, run.run(text)]).toEqual([text, true]);
    for (const text of rejected) expect([text, run.run(text)]).toEqual([text, false]);
  });

  describe('limits', () => {
    const attempt = (pattern: string, workLimit = 10000): { error?: unknown; size?: number } => {
      try {
        return { size: compile(pattern, workLimit).size };
      } catch (error) {
        return { error };
      }
    };

    test('a pattern whose DFA blows up throws TooComplexError', () => {
      compile('(a|b)*a(a|b){4}'); // warm up
      const { error } = attempt('(a|b)*a(a|b){20}');
      expect(error).toBeInstanceOf(TooComplexError);
      expect((error as TooComplexError).message).toBe('Determinizing (a|b)*a(a|b){20} would require more than 10000 effort.');
      expect((error as TooComplexError).pattern).toBe('(a|b)*a(a|b){20}');
      expect((error as TooComplexError).limit).toBe(10000);
      // Below the limit the same shape compiles: 2^12 states.
      expect(compile('(a|b)*a(a|b){11}').size).toBe(4096);
    });

    test('the work limit is the one given', () => {
      expect(() => compile('(a|b)*a(a|b){8}', 100)).toThrow('Determinizing (a|b)*a(a|b){8} would require more than 100 effort.');
      expect(compile('(a|b)*a(a|b){8}', 100000).size).toBe(512);
    });

    test.each([
      ['a{999999}', 999999],
      ['a{2147483647}', 2147483647],
      ['a{10001,}', 10001],
      ['(ab){5001}', 10002],
      ['((a{100}){100}){100}', 1000000],
      ['.{3}{4000}', 12000],
    ])("%s fails before building, with Lucene's repetition estimate as the limit", (pattern, limit) => {
      const { error } = attempt(pattern);
      expect(error).toEqual(new TooComplexError(pattern, limit));
    });

    test.each(['a{10000}', 'a{0,10000}', '((a{10}){10}){100}', '(a{100}b{100}){50}', 'x{2,10000}y'])('%s compiles within the limit', (pattern) => {
      const { error, size } = attempt(pattern);
      expect(error).toBeUndefined();
      expect(size).toBeGreaterThan(100);
    });

    test.each([
      '(()|()){2000000000}', // each copy is one NFA state: the construction budget stops it
      'a{10000}b{10000}c{10000}d{10000}e{10000}f{10000}',
      '(x{0}){99999999}',
    ])('%s is stopped by the construction budget', (pattern) => {
      const { error } = attempt(pattern);
      expect(error).toEqual(new TooComplexError(pattern, 10000));
    });

    test('every pattern of up to 1,000 characters compiles or fails quickly (random nests of repetitions)', () => {
      const nested = fc
        .array(fc.tuple(fc.constantFrom('a', '.', '(a|b)', '[a-z]', '.*', '~a', 'a&.'), fc.constantFrom('{99}', '{0,999}', '{50,}', '*', '+', '{9}', '')), {
          minLength: 1,
          maxLength: 6,
        })
        .map((parts) => parts.reduce((acc, [atom, q]) => `(${acc}${atom})${q}`, ''));
      // (how long they take is measured by bench:abuse, not asserted here: tests assert no wall-clock times)
      fc.assert(
        fc.property(nested, (pattern) => {
          const { error } = attempt(pattern);
          if (error !== undefined) expect(error).toBeInstanceOf(TooComplexError);
        }),
        { numRuns: 150, seed: 7 },
      );
    });
  });
});

