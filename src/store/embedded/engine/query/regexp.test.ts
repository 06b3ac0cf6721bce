import { InvalidQueryError, QueryLimitError } from '../../../port';
import { DEFAULT_LIMITS } from '../limits';
import { SearchIndex } from '../searchIndex';
import { COUNTRIES, indexAll } from '../testing';

const index = indexAll(new SearchIndex({ keyword: ['id'] }), COUNTRIES);
const ids = (query: Record<string, unknown>) => index.search({ query, from: 0, size: 10 }).hits.map((h) => [h._id, h._score]);

function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (err) {
    return err;
  }
  throw new Error('did not throw');
}

describe('regexp', () => {
  it('matches whole terms of keyword and text fields, constant-score with its boost', () => {
    expect(ids({ regexp: { 'code.keyword': 'F.' } })).toEqual([['1', 1]]);
    expect(ids({ regexp: { 'code.keyword': 'F' } })).toEqual([]); // anchored
    expect(ids({ regexp: { name: { value: 'fra[a-z]+', boost: 2 } } })).toEqual([['1', 2]]);
    expect(ids({ regexp: { name: { regexp: '(south|guian)a?' } } })).toEqual([
      ['2', 1],
      ['3', 1],
    ]);
  });

  it('takes flags, case_insensitive and the constant-score rewrites', () => {
    expect(ids({ regexp: { 'code.keyword': { value: 'f.', case_insensitive: true } } })).toEqual([['1', 1]]);
    expect(ids({ regexp: { name: { value: 'fr.*&.*ce', flags: 'INTERSECTION' } } })).toEqual([['1', 1]]);
    expect(ids({ regexp: { name: { value: 'fr.*&.*ce', flags: 'NONE' } } })).toEqual([]); // & is a character then
    expect(ids({ regexp: { name: { value: '@', flags: 'ANYSTRING', rewrite: 'constant_score_blended' } } }).length).toBe(3);
    expect(() => ids({ regexp: { name: { value: 'a', flags: 'SOMETIMES' } } })).toThrow(InvalidQueryError);
    expect(ids({ regexp: { name: { value: 'fr.*', rewrite: 'top_terms_blended_freqs_3' } } }).length).toBe(2);
    expect(() => ids({ regexp: { name: { value: 'a', rewrite: 'top_terms_blended_freqs_0' } } })).toThrow('needs a size of at least 1');
    expect(() => ids({ regexp: { name: { value: 'a', rewrite: 'sometimes' } } })).toThrow('unknown rewrite');
  });

  it('answers a syntax error with a 400 naming its position', () => {
    const err = thrown(() => ids({ regexp: { name: 'fr(a' } }));
    expect(err).toBeInstanceOf(InvalidQueryError);
    expect((err as Error).message).toMatch(/position/);
  });

  it('never backtracks: (a+)+$ and friends over long terms', () => {
    const long = new SearchIndex();
    for (let i = 0; i < 1000; i++) long.put(`w${i}`, { name: `${'a'.repeat(40)}${i}` });
    const count = (value: string) => long.search({ query: { regexp: { 'name.keyword': value } }, from: 0, size: 0 }).total;
    expect(count('(a+)+$')).toBe(0); // `$` is a literal character in Lucene's syntax
    expect(count('(a+)+[0-9]+')).toBe(1000);
    expect(count('(a|aa)*1[0-9]')).toBe(10);
    expect(count('a{40}<0-99>')).toBe(100);
  });

  it('refuses patterns over the limits, each with its own error', () => {
    const tooLong = thrown(() => ids({ regexp: { name: 'a'.repeat(DEFAULT_LIMITS.maxRegexLength + 1) } }));
    expect(tooLong).toBeInstanceOf(QueryLimitError);
    expect((tooLong as QueryLimitError).limit).toBe('regex_too_long');
    const complex = thrown(() => ids({ regexp: { name: '(a|b)*a(a|b){40}' } }));
    expect(complex).toBeInstanceOf(QueryLimitError);
    expect((complex as QueryLimitError).limit).toBe('too_complex_to_determinize');
    expect((complex as QueryLimitError).message).toMatch(/^Determinizing .* would require more than 10000 effort\.$/);
    const lowered = thrown(() => ids({ regexp: { name: { value: '(a|b)*a(a|b){8}', max_determinized_states: 10 } } }));
    expect((lowered as QueryLimitError).limit).toBe('too_complex_to_determinize');
    expect(() => ids({ regexp: { name: { value: 'a', max_determinized_states: 10_001 } } })).toThrow('may not exceed 10000');
    expect(() => ids({ regexp: { population: 'a' } })).toThrow('can only use regexp queries on keyword and text fields');
  });
});
