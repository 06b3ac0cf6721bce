import { compilePrefix } from '../automaton';
import { UNLIMITED, runToEnd } from '../budget/budget';
import { LQuery, booleanQuery, termQuery } from '../lucene/query';
import { rewrite } from '../lucene/rewrite';
import { termsAccepted, termsIn } from '../query/leaves';
import { leafTests } from './leafTests';
import { fieldText } from './tokens';
import { DocumentMatches, weightMatches } from './weightMatches';
import { extractedMatches } from './extractedTerms';

/** The matches in `body` as [text, term], the other fields answering `elsewhere`. */
function matches(query: LQuery, text: string, elsewhere = false): [string, string][] | null {
  const tests = runToEnd(leafTests(rewrite(query), UNLIMITED, runToEnd(leafTests(query, UNLIMITED))));
  const doc: DocumentMatches = { matches: () => elsewhere, expand: () => null };
  const found = weightMatches(query, rewrite(query), 'body', fieldText([text], 'standard'), tests, doc);
  return found === null ? null : found.map((m) => [text.slice(m.start, m.end), m.term]);
}

const phrase = (words: string, slop = 0): LQuery => ({ type: 'phrase', field: 'body', terms: words.split(' '), positions: words.split(' ').map((_, i) => i), slop });
const should = (...queries: LQuery[]) => booleanQuery(queries.map((query) => ({ occur: 'should' as const, query })));

describe('WEIGHT_MATCHES: the matches of the query itself in the highlighted field', () => {
  it('highlights a phrase as one match, and only where it occurs', () => {
    expect(matches(phrase('quick brown'), 'The quick brown fox, quick and brown')).toEqual([['quick brown', 'quick brown']]);
  });

  it('counts every match once, as its term', () => {
    const found = weightMatches(termQuery('body', 'fox'), termQuery('body', 'fox'), 'body', fieldText(['fox and fox'], 'standard'), new Map(), { matches: () => false, expand: () => null });
    expect(found?.map((m) => m.freq)).toEqual([1, 1]);
  });

  it('leaves out the clauses that do not match (a failing must ends it all)', () => {
    const q = should(booleanQuery([
      { occur: 'must', query: termQuery('body', 'fox') },
      { occur: 'must', query: termQuery('body', 'cat') },
    ]), termQuery('body', 'dog'));
    expect(matches(q, 'fox and dog')).toEqual([['dog', 'dog']]);
  });

  it('asks the document about clauses on other fields, which highlight nothing', () => {
    const q = booleanQuery([
      { occur: 'must', query: termQuery('title', 'x') },
      { occur: 'must', query: termQuery('body', 'fox') },
    ]);
    expect(matches(q, 'a fox', true)).toEqual([['fox', 'fox']]);
    expect(matches(q, 'a fox', false)).toBeNull();
  });

  it('drops optional clauses beside required ones, as a weight made without scores does', () => {
    const q = booleanQuery([
      { occur: 'must', query: termQuery('body', 'quick') },
      { occur: 'should', query: termQuery('body', 'brown') },
    ]);
    expect(matches(q, 'quick brown')).toEqual([['quick', 'quick']]);
    // unless minimum_should_match asks for them
    const msm = booleanQuery(
      [
        { occur: 'must', query: termQuery('body', 'quick') },
        { occur: 'should', query: termQuery('body', 'brown') },
      ],
      1,
    );
    expect(matches(msm, 'quick brown')).toEqual([
      ['quick', 'quick'],
      ['brown', 'brown'],
    ]);
  });

  it('ignores a must_not on the highlighted field (its terms are not analyzed again), not one elsewhere', () => {
    const q = booleanQuery([
      { occur: 'should', query: termQuery('body', 'fox') },
      { occur: 'must_not', query: termQuery('body', 'dog') },
    ]);
    expect(matches(q, 'fox and dog')).toEqual([['fox', 'fox']]);
    const elsewhere = booleanQuery([
      { occur: 'should', query: termQuery('body', 'fox') },
      { occur: 'must_not', query: termQuery('title', 'dog') },
    ]);
    expect(matches(elsewhere, 'fox', true)).toBeNull();
  });

  it('counts all the matches of a pattern or of a set of terms as one term (its query)', () => {
    const prefix = termsAccepted('body', 'prefix:["br",false]', compilePrefix('br'));
    expect(matches(prefix, 'brown bread')).toEqual([
      ['brown', 'body:br*'],
      ['bread', 'body:br*'],
    ]);
    const set = termsIn('body', ['brown', 'bread']);
    expect(matches(set, 'brown bread')?.map(([, term]) => term)).toEqual(['terms:["body",["brown","bread"]]', 'terms:["body",["brown","bread"]]']);
  });

  it('orders matches by offsets, then by term in UTF-8 order', () => {
    expect(matches(should(phrase('a b'), termQuery('body', 'a')), 'a b')).toEqual([
      ['a', 'a'],
      ['a b', 'a b'],
    ]);
  });
});

describe('a query expanded at search time (match_phrase_prefix)', () => {
  // a MultiPhrasePrefixQuery "quick br*": against the document it expands to the phrase quick (brown|bread)
  const leaf: LQuery = {
    type: 'leaf',
    key: 'phrasePrefix:["body",["quick","br"],0,50]',
    docs: () => [],
    expand: () => ({ type: 'multiPhrase', field: 'body', termArrays: [['quick'], ['brown', 'bread']], positions: [0, 1], slop: 0 }),
  };
  const doc: DocumentMatches = { matches: () => false, expand: (l) => l.expand?.(null as never) ?? null };

  it('highlights its expansion in the document, a phrase as one match', () => {
    const text = fieldText(['a quick brown fox, quick bread'], 'standard');
    const found = weightMatches(leaf, leaf, 'body', text, new Map(), doc);
    expect(found?.map((m) => text.text.slice(m.start, m.end))).toEqual(['quick brown', 'quick bread']);
  });

  it('highlights its terms where the phrase occurs without require_field_match', () => {
    const text = fieldText(['quick brown, brown quick'], 'standard');
    const found = extractedMatches(leaf, text, new Map(), doc.expand);
    expect(found.map((m) => text.text.slice(m.start, m.end))).toEqual(['quick', 'brown']);
  });
});
