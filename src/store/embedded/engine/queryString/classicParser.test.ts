import { QueryLimitError } from '../../../port';
import { DEFAULT_LIMITS } from '../limits';
import { ClassicOptions, ParseError, QueryItem, discardEscapeChar, parseClassic } from './classicParser';

const OPTIONS: ClassicOptions = { fuzzyDistance: (image) => (image === '~' ? 2 : Number(image.slice(1))), limits: DEFAULT_LIMITS };
const parse = (query: string, options = OPTIONS) => parseClassic(query, options);
const items = (query: string) => parse(query).items;
const term = (text: string, boost: number | null = null) => ({ field: null, body: { kind: 'term', text, boost } });
const clause = (c: object, conj = 'none', mods = 'none'): QueryItem => ({ kind: 'clause', conj, mods, clause: c }) as QueryItem;

function error(query: string, options = OPTIONS): string {
  try {
    parse(query, options);
  } catch (err) {
    if (err instanceof ParseError) return err.message;
    throw err;
  }
  throw new Error(`${query} parsed`);
}

describe('classic query syntax parser', () => {
  it('reads consecutive terms as one text (MultiTerm), unless a field, boost, fuzzy slop, AND or OR follows', () => {
    expect(items('new york city')).toEqual([{ kind: 'multi', text: 'new york city' }]);
    expect(items('a b:c')).toEqual([clause(term('a')), clause({ field: 'b', body: { kind: 'term', text: 'c', boost: null } })]);
    expect(items('a b^2')).toEqual([clause(term('a')), clause(term('b', 2))]);
    expect(items('a b AND c')).toEqual([clause(term('a')), clause(term('b')), clause(term('c'), 'and')]);
    expect(items('a b c OR d')).toEqual([{ kind: 'multi', text: 'a b' }, clause(term('c')), clause(term('d'), 'or')]);
  });

  it('reads conjunctions and modifiers', () => {
    expect(items('+a -b NOT c && !d || e')).toEqual([
      clause(term('a'), 'none', 'req'), clause(term('b'), 'none', 'not'), clause(term('c'), 'none', 'not'), clause(term('d'), 'and', 'not'), clause(term('e'), 'or'),
    ]);
    // a bare operator followed by a space is a term of its own
    expect(items('a + b')).toEqual([clause(term('a')), clause(term('+')), clause(term('b'))]);
  });

  it('reads fields, groups with boosts, and every kind of term', () => {
    expect(items('f:(a b)^2')).toEqual([clause({ field: 'f', body: { kind: 'group', query: { items: [{ kind: 'multi', text: 'a b' }] }, boost: 2 } })]);
    expect(items('*:*')).toEqual([clause({ field: '*', body: { kind: 'wildcard', pattern: '*', boost: null } })]);
    const bodies = items('fo* f?o /a+b/ foo~ foo~1^3 "a b"~2 "c"^2~1 [a TO *} {* TO "z z"]').map((i) => (i.kind === 'clause' ? i.clause.body : null));
    expect(bodies).toEqual([
      { kind: 'prefix', text: 'fo', boost: null },
      { kind: 'wildcard', pattern: 'f?o', boost: null },
      { kind: 'regexp', pattern: 'a+b', boost: null },
      { kind: 'fuzzy', text: 'foo', edits: 2, boost: null },
      { kind: 'fuzzy', text: 'foo', edits: 1, boost: 3 },
      { kind: 'quoted', text: 'a b', slop: 2, boost: null },
      { kind: 'quoted', text: 'c', slop: 1, boost: 2 },
      { kind: 'range', lower: 'a', upper: null, includeLower: true, includeUpper: false, boost: null },
      { kind: 'range', lower: null, upper: 'z z', includeLower: false, includeUpper: true, boost: null },
    ]);
  });

  it('removes escapes (\\uXXXX too) from terms and fields, and keeps them in wildcards and regular expressions', () => {
    expect(discardEscapeChar('a\\:b\\u0041\\\\')).toBe('a:bA\\');
    expect(items('na\\:me:x\\-y')).toEqual([clause({ field: 'na:me', body: { kind: 'term', text: 'x-y', boost: null } })]);
    expect(items('a\\*b?')).toEqual([clause({ field: null, body: { kind: 'wildcard', pattern: 'a\\*b?', boost: null } })]);
    expect(items('a\\*b*')).toEqual([clause({ field: null, body: { kind: 'prefix', text: 'a*b', boost: null } })]);
    expect(error('a\\u00')).toBe("Cannot parse 'a\\u00': Truncated unicode escape sequence.");
    expect(error('a\\u00zz')).toBe("Cannot parse 'a\\u00zz': Non-hex character in Unicode escape sequence: z");
  });

  it('refuses fractional and negative fuzzy distances, as handleBareFuzzy does', () => {
    expect(error('a~1.5', { ...OPTIONS, fuzzyDistance: () => 1.5 })).toBe("Cannot parse 'a~1.5': Fractional edit distances are not allowed!");
    expect(error('a~', { ...OPTIONS, fuzzyDistance: () => -1 })).toBe("Cannot parse 'a~': Minimum similarity for a FuzzyQuery has to be between 0.0f and 1.0f !");
    // a phrase's slop is (int) Float.parseFloat, the default when it does not read
    expect(items('"a b"~2.7 "c d"~x').map((i) => (i.kind === 'clause' && i.clause.body.kind === 'quoted' ? i.clause.body.slop : undefined))).toEqual([2, null]);
  });

  it('reports syntax errors as ParseException does: the token met, its column, what was expected', () => {
    expect(error('foo:(')).toBe(
      'Cannot parse \'foo:(\': Encountered "<EOF>" at line 1, column 5. Was expecting one of: <NOT>, "+", "-", <BAREOPER>, "(", "*", <QUOTED>, <TERM>, <PREFIXTERM>, <WILDTERM>, <REGEXPTERM>, "[", "{", <NUMBER>',
    );
    expect(error(')')).toMatch(/^Cannot parse '\)': Encountered " "\)" "\) "" at line 1, column 0\./);
    expect(error('a AND')).toMatch(/Encountered "<EOF>" at line 1, column 5\./);
    expect(error('[a TO b')).toBe('Cannot parse \'[a TO b\': Encountered "<EOF>" at line 1, column 7. Was expecting one of: "]", "}"');
    expect(error('foo^')).toBe('Cannot parse \'foo^\': Encountered "<EOF>" at line 1, column 4. Was expecting: <NUMBER>');
    expect(error('a b)')).toMatch(/Encountered " "\)" "\) "" at line 1, column 3\./);
    expect(error('foo^abc')).toBe('Cannot parse \'foo^abc\': Lexical error at line 1, column 5.  Encountered: "a" (97), after : ""');
  });

  it('refuses parentheses nested deeper than the limit (query_too_deep), without recursing further', () => {
    expect(parse(`${'('.repeat(30)}a${')'.repeat(30)}`).items).toHaveLength(1);
    expect(() => parse(`${'('.repeat(31)}a${')'.repeat(31)}`)).toThrow(QueryLimitError);
    expect(() => parse('('.repeat(100_000))).toThrow(expect.objectContaining({ limit: 'query_too_deep' }));
  });

  it('reads up to MAX_CLAUSE_COUNT terms, and refuses more as soon as it meets them (too_many_clauses)', () => {
    const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`);
    expect(items(`${words(4095).join(' ')} OR z`)).toHaveLength(3);
    expect(() => parse(words(4097).join(' '))).toThrow(expect.objectContaining({ limit: 'too_many_clauses' }));
    expect(() => parse(words(200_000).join(' OR '))).toThrow(expect.objectContaining({ limit: 'too_many_clauses' }));
    expect(() => parse('"a" '.repeat(5000))).toThrow(expect.objectContaining({ limit: 'too_many_clauses' }));
  });
});
