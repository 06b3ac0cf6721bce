import { TooComplexError } from './budget';
import { compileCaseInsensitiveTerm, compilePrefix, compileRegexp, compileWildcard } from './patterns';
import { RegexpFlag, RegexpFlagError } from './regexpFlags';
import { RegexpSyntaxError } from './regexpParser';
import { RunAutomaton } from './runAutomaton';

const matching = (run: RunAutomaton, texts: string[]): string[] => texts.filter((text) => run.run(text));

describe('patterns', () => {
  describe('compileRegexp', () => {
    test('anchored Lucene syntax', () => {
      const run = compileRegexp('fra.*');
      expect(matching(run, ['fra', 'france', 'xfra', 'fr', 'Fra'])).toEqual(['fra', 'france']);
      expect(run.kind).toBe('regexp');
      expect(run.describe()).toBe('regexp [fra.*]');
    });

    test('flags as bits or as an Elasticsearch string', () => {
      expect(compileRegexp('a&b').run('a&b')).toBe(false); // ALL by default: an intersection
      expect(compileRegexp('a&b', { flags: RegexpFlag.NONE }).run('a&b')).toBe(true);
      expect(compileRegexp('a&b', { flags: 'COMPLEMENT|EMPTY' }).run('a&b')).toBe(true);
      expect(compileRegexp('~a', { flags: 'complement' }).run('b')).toBe(true);
      expect(() => compileRegexp('a', { flags: 'SOME' })).toThrow(new RegexpFlagError('Unknown regexp flag [SOME]'));
    });

    test('case_insensitive: ASCII letters of characters and strings, not ranges', () => {
      const ci = compileRegexp('ab"cd"[e-f]é', { caseInsensitive: true });
      expect(matching(ci, ['abcdeé', 'ABCDeé', 'aBcDeé', 'ABCDEé', 'abcdeÉ'])).toEqual(['abcdeé', 'ABCDeé', 'aBcDeé']);
      expect(compileRegexp('', { caseInsensitive: true }).run('')).toBe(false); // Lucene's quirk
      expect(compileRegexp('').run('')).toBe(true);
    });

    test('errors', () => {
      expect(() => compileRegexp('(ab')).toThrow(new RegexpSyntaxError("expected ')' at position 3", 3));
      expect(() => compileRegexp('(a|b)*a(a|b){20}')).toThrow(TooComplexError);
      expect(compileRegexp('(a|b)*a(a|b){14}', { maxDeterminizedStates: 100000 }).size).toBe(32768);
      expect(() => compileRegexp('(a|b)*a(a|b){8}', { maxDeterminizedStates: 100 })).toThrow(
        'Determinizing (a|b)*a(a|b){8} would require more than 100 effort.',
      );
    });

    test('long and deeply nested patterns', () => {
      expect(compileRegexp('a'.repeat(10000)).run('a'.repeat(10000))).toBe(true);
      expect(compileRegexp(`${'('.repeat(500)}a${')'.repeat(500)}`).run('a')).toBe(true);
      const deep = `${'('.repeat(50000)}a${')'.repeat(50000)}`;
      expect(() => compileRegexp(deep)).toThrow(new TooComplexError(deep, 10000));
    });

    test('no backtracking: (a+)+$ style patterns run in linear time', () => {
      const run = compileRegexp('(a+)+b');
      const start = performance.now();
      expect(run.run(`${'a'.repeat(100000)}c`)).toBe(false);
      expect(performance.now() - start).toBeLessThan(200);
    });
  });

  describe('compileWildcard (Lucene WildcardQuery, Elasticsearch case-insensitivity)', () => {
    test('* and ? over code points', () => {
      const run = compileWildcard('*a*a*a*a*b');
      expect(matching(run, ['aaaab', 'xaxaxaxaxb', 'aaab', 'aaaaba'])).toEqual(['aaaab', 'xaxaxaxaxb']);
      expect(matching(compileWildcard('?'), ['😀', 'a', '', 'ab'])).toEqual(['😀', 'a']);
      expect(matching(compileWildcard('a*'), ['a', 'abc', 'ba'])).toEqual(['a', 'abc']);
      expect(compileWildcard('a*').describe()).toBe('wildcard [a*]');
    });

    test('escapes; a trailing backslash is itself', () => {
      expect(matching(compileWildcard('a\\*'), ['a*', 'ab', 'a\\*'])).toEqual(['a*']);
      expect(matching(compileWildcard('a\\?b'), ['a?b', 'axb'])).toEqual(['a?b']);
      expect(matching(compileWildcard('a\\\\'), ['a\\', 'a'])).toEqual(['a\\']);
      expect(matching(compileWildcard('a\\'), ['a\\', 'a'])).toEqual(['a\\']);
      expect(matching(compileWildcard('\\😀'), ['😀'])).toEqual(['😀']);
    });

    test('case-insensitive: ASCII letters, not escaped ones', () => {
      expect(matching(compileWildcard('Fr*', true), ['france', 'FRANCE', 'fRx', 'f'])).toEqual(['france', 'FRANCE', 'fRx']);
      expect(matching(compileWildcard('\\Fr*', true), ['france', 'Fr', 'FR'])).toEqual(['Fr', 'FR']);
      expect(matching(compileWildcard('é*', true), ['é', 'É'])).toEqual(['é']);
    });

    test('the empty pattern matches nothing (Lucene concatenates no automata)', () => {
      expect(compileWildcard('').run('')).toBe(false);
      expect(compileWildcard('', true).run('')).toBe(false);
    });

    test('a wildcard that blows up throws TooComplexError', () => {
      expect(() => compileWildcard(`*a${'?'.repeat(22)}`)).toThrow(new TooComplexError(`*a${'?'.repeat(22)}`, 10000));
      expect(compileWildcard(`*a${'?'.repeat(8)}`).size).toBe(512);
      expect(() => compileWildcard(`*a${'?'.repeat(8)}`, false, 10)).toThrow(TooComplexError);
    });
  });

  describe('compilePrefix and compileCaseInsensitiveTerm', () => {
    test('prefix', () => {
      const run = compilePrefix('fr');
      expect(matching(run, ['fr', 'france', 'f', 'Fr', 'xfr'])).toEqual(['fr', 'france']);
      expect(run.acceptsAllFrom(run.step(run.step(run.initial, 0x66), 0x72))).toBe(true);
      expect(compilePrefix('').run('')).toBe(true);
      expect(compilePrefix('😀').run('😀x')).toBe(true);
      expect(run.describe()).toBe('prefix [fr]');
    });

    test('case-insensitive prefix (AutomatonQueries.caseInsensitivePrefix)', () => {
      expect(matching(compilePrefix('Fr', true), ['france', 'FRANCE', 'fR', 'f', 'éfr'])).toEqual(['france', 'FRANCE', 'fR']);
      expect(compilePrefix('', true).run('x')).toBe(true);
    });

    test('a long prefix compiles without a limit', () => {
      const prefix = 'x'.repeat(200000);
      expect(compilePrefix(prefix).run(`${prefix}y`)).toBe(true);
    });

    test('case-insensitive term (AutomatonQueries.toCaseInsensitiveString)', () => {
      const run = compileCaseInsensitiveTerm('Straße 1');
      expect(matching(run, ['straße 1', 'STRAßE 1', 'STRASSE 1', 'straße 12', 'strasse 1'])).toEqual(['straße 1', 'STRAßE 1']);
      expect(run.describe()).toBe('term [Straße 1]');
      expect(compileCaseInsensitiveTerm('').run('')).toBe(false); // as Lucene: no automata concatenated
    });
  });
});
