import { QueryLimitError } from '../../../port';
import { DEFAULT_LIMITS } from '../limits';
import { SimpleFlag, Step, parseSimple } from './simpleParser';

const steps = (query: string, flags: number = SimpleFlag.ALL): readonly Step[] => {
  const ast = parseSimple(query, flags, DEFAULT_LIMITS);
  return ast.kind === 'steps' ? ast.steps : [];
};
const branch = (b: object, not = 0) => ({ kind: 'branch', not, branch: b });
const term = (text: string, not = 0) => branch({ kind: 'term', text }, not);

describe('simple query string scanner', () => {
  it('reads terms, operators and negations', () => {
    expect(steps('a +b | -c')).toEqual([term('a'), { kind: 'operator', occur: 'must' }, term('b'), { kind: 'operator', occur: 'should' }, term('c', 1)]);
    expect(steps('--a - b')).toEqual([term('a', 2), term('b')]);
    expect(steps('a+b|c')).toEqual([term('a'), { kind: 'operator', occur: 'must' }, term('b'), { kind: 'operator', occur: 'should' }, term('c')]);
    expect(steps('x-ray')).toEqual([term('x-ray')]);
  });

  it('reads prefixes, fuzzy terms, phrases with slop, groups and escapes', () => {
    expect(steps('fo* f*o fo\\* fo~ fo~1 fo~9 fo~x')).toEqual([
      branch({ kind: 'prefix', text: 'fo' }), term('f*o'), term('fo*'), branch({ kind: 'fuzzy', text: 'fo', edits: 2 }), branch({ kind: 'fuzzy', text: 'fo', edits: 1 }),
      branch({ kind: 'fuzzy', text: 'fo', edits: 2 }), term('fo'),
    ]);
    expect(steps('"a b"~2 "c \\" d"')).toEqual([branch({ kind: 'phrase', text: 'a b', slop: 2 }), branch({ kind: 'phrase', text: 'c " d', slop: 0 })]);
    expect(steps('-(a | b) c')).toEqual([branch({ kind: 'group', steps: [term('a'), { kind: 'operator', occur: 'should' }, term('b')] }, 1), term('c')]);
    expect(steps('\\-a \\(b')).toEqual([term('-a'), term('(b')]);
  });

  it('skips what never closes and resets the operation of what is empty', () => {
    expect(steps('"a b')).toEqual([term('a'), term('b')]);
    expect(steps('(a b')).toEqual([term('a'), term('b')]);
    expect(steps('a +() b')).toEqual([term('a'), { kind: 'operator', occur: 'must' }, { kind: 'reset' }, term('b')]);
    expect(steps('a)b')).toEqual([term('a'), term('b')]);
  });

  it('reads an operator as text when its flag is off', () => {
    expect(steps('a +b', SimpleFlag.WHITESPACE)).toEqual([term('a'), term('+b')]);
    expect(steps('a b', SimpleFlag.NONE)).toEqual([term('a b')]);
    expect(steps('fo* "x y"', SimpleFlag.WHITESPACE | SimpleFlag.PHRASE)).toEqual([term('fo*'), branch({ kind: 'phrase', text: 'x y', slop: 0 })]);
    expect(steps('fo~1', SimpleFlag.NONE)).toEqual([term('fo~1')]);
  });

  it('is `*` alone: everything', () => {
    expect(parseSimple(' * ', SimpleFlag.ALL, DEFAULT_LIMITS)).toEqual({ kind: 'all' });
  });

  it('reads parentheses that never close in one pass (Lucene scans again from each)', () => {
    expect(steps(`${'('.repeat(200_000)}a`)).toEqual([term('a')]);
    expect(steps(`(a\\)b) (c`)).toEqual([branch({ kind: 'group', steps: [term('a)b')] }), term('c')]);
  });

  it('refuses more than MAX_CLAUSE_COUNT terms as soon as it meets them', () => {
    expect(() => parseSimple(Array.from({ length: 5000 }, (_, i) => `w${i}`).join(' | '), SimpleFlag.ALL, DEFAULT_LIMITS)).toThrow(expect.objectContaining({ limit: 'too_many_clauses' }));
  });

  it('refuses groups nested deeper than the limit', () => {
    expect(() => parseSimple(`${'('.repeat(31)}a${')'.repeat(31)}`, SimpleFlag.ALL, DEFAULT_LIMITS)).toThrow(QueryLimitError);
    expect(() => parseSimple(`${'('.repeat(50_000)}a${')'.repeat(50_000)}`, SimpleFlag.ALL, DEFAULT_LIMITS)).toThrow(QueryLimitError);
  });
});
