import { compilePrefix } from '../automaton';
import { UNLIMITED, runToEnd } from '../budget/budget';
import { LQuery, booleanQuery, termQuery } from '../lucene/query';
import { termsAccepted, termsIn } from '../query/leaves';
import { extractedMatches } from './extractedTerms';
import { leafTests } from './leafTests';
import { fieldText } from './tokens';

function matches(query: LQuery, text: string): [string, string, number][] {
  const tests = runToEnd(leafTests(query, UNLIMITED));
  return extractedMatches(query, fieldText([text], 'standard'), tests).map((m) => [text.slice(m.start, m.end), m.term, m.freq]);
}

const phrase = (field: string, words: string, slop = 0): LQuery => ({ type: 'phrase', field, terms: words.split(' '), positions: words.split(' ').map((_, i) => i), slop });

describe('require_field_match false: the terms of the query looked for in the highlighted field', () => {
  it('finds the terms of any field, not those under must_not, each with its frequency in the text', () => {
    const q = booleanQuery([
      { occur: 'should', query: termQuery('title', 'fox') },
      { occur: 'should', query: termQuery('body', 'dog') },
      { occur: 'must_not', query: termQuery('body', 'cat') },
    ]);
    expect(matches(q, 'fox cat dog fox')).toEqual([
      ['fox', 'fox', 2],
      ['dog', 'dog', 1],
      ['fox', 'fox', 2],
    ]);
  });

  it('highlights the terms of a phrase where the phrase occurs only, counting those', () => {
    expect(matches(phrase('title', 'quick brown'), 'quick brown fox, brown quick, quick brown')).toEqual([
      ['quick', 'quick', 2],
      ['brown', 'brown', 2],
      ['quick', 'quick', 2],
      ['brown', 'brown', 2],
    ]);
  });

  it('highlights a term everywhere when a term query asks for it beside the phrase', () => {
    const q = booleanQuery([
      { occur: 'should', query: phrase('body', 'quick brown') },
      { occur: 'should', query: termQuery('body', 'brown') },
    ]);
    expect(matches(q, 'quick brown, brown')).toEqual([
      ['quick', 'quick', 1],
      ['brown', 'brown', 2],
      ['brown', 'brown', 2],
    ]);
  });

  it('counts the matches of a pattern, or of a set of several terms, as one term', () => {
    const q = booleanQuery([
      { occur: 'should', query: termsAccepted('x', 'prefix:["br",false]', compilePrefix('br')) },
      { occur: 'should', query: termsIn('x', ['fox', 'dog']) },
    ]);
    expect(matches(q, 'brown fox bread')).toEqual([
      ['brown', 'x:br*', 2],
      ['fox', 'terms:["x",["fox","dog"]]', 1],
      ['bread', 'x:br*', 2],
    ]);
  });
});
