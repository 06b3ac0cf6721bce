import { SearchIndex } from '../searchIndex';
import { expectedIdf, expectedScore, indexAll } from '../testing';

const f = Math.fround;
const index = indexAll(new SearchIndex(), [
  ['p1', { text: 'quick brown fox' }],
  ['p2', { text: 'brown quick fox' }],
  ['p3', { text: 'quick fox' }],
  ['p4', { text: 'the quick quick brown fox' }],
]);
const scores = (query: Record<string, unknown>) => index.search({ query, from: 0, size: 10 }).hits.map((h) => [h._id, Math.fround(h._score as number)]);

// text lengths 3, 3, 2, 5: N = 4, avgdl = 13 / 4; quick is in 4 documents, brown in 3
const STATS = { N: 4, avgdl: 13 / 4 };
// the phrase idf is the sum of the terms' float idfs, in double, cast to float
const PHRASE_IDF = f(expectedIdf(4, 4) + expectedIdf(4, 3));

describe('match_phrase', () => {
  it('matches the tokens in order, scoring with the summed idf and the phrase frequency', () => {
    expect(scores({ match_phrase: { text: 'quick brown' } })).toEqual([
      ['p1', expectedScore({ ...STATS, n: 0, idf: PHRASE_IDF, freq: 1, dl: 3 })],
      ['p4', expectedScore({ ...STATS, n: 0, idf: PHRASE_IDF, freq: 1, dl: 5 })],
    ]);
  });

  it('scores sloppy matches by 1 / (1 + distance)', () => {
    // p2 "brown quick" needs 2 moves for "quick brown"; p4 has "quick brown" exactly and "quick _ brown" at distance 1
    expect(scores({ match_phrase: { text: { query: 'quick brown', slop: 2 } } })).toEqual([
      ['p1', expectedScore({ ...STATS, n: 0, idf: PHRASE_IDF, freq: 1, dl: 3 })],
      ['p4', expectedScore({ ...STATS, n: 0, idf: PHRASE_IDF, freq: 1, dl: 5 })],
      ['p2', expectedScore({ ...STATS, n: 0, idf: PHRASE_IDF, freq: f(1 / 3), dl: 3 })],
    ]);
    expect(scores({ match_phrase: { text: { query: 'quick brown', slop: 1 } } }).map((h) => h[0])).toEqual(['p1', 'p4']);
  });

  it('is a term query for a single token and matches nothing for none', () => {
    expect(scores({ match_phrase: { text: 'FOX' } }).length).toBe(4);
    expect(scores({ match_phrase: { text: { query: '???', zero_terms_query: 'none' } } })).toEqual([]);
  });

  it('applies the boost', () => {
    expect(scores({ match_phrase: { text: { query: 'quick brown', boost: 2 } } })[0]).toEqual(['p1', expectedScore({ ...STATS, n: 0, idf: PHRASE_IDF, freq: 1, dl: 3, boost: 2 })]);
  });

  it('rejects unsupported parameters', () => {
    expect(() => scores({ match_phrase: { text: { query: 'a', operator: 'and' } } })).toThrow('unsupported parameter "operator" for [match_phrase]');
    expect(() => scores({ match_phrase: { text: { query: 'a', slop: -1 } } })).toThrow('slop');
  });
});
