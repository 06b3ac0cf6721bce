/** The rewrites of pattern queries (MultiTermQuery's rewrite methods): same documents, the scores each defines, the clause limit where Lucene builds a boolean query. */
import { QueryLimitError } from '../../../port';
import { DEFAULT_LIMITS } from '../limits';
import { SearchIndex } from '../searchIndex';
import { COUNTRIES, indexAll } from '../testing';

const index = indexAll(new SearchIndex({ keyword: ['id'] }, { limits: { ...DEFAULT_LIMITS, maxClauseCount: 2 } }), COUNTRIES);
const hits = (query: Record<string, unknown>) => index.search({ query, from: 0, size: 10 }).hits.map((h) => [h._id, h._score]);
const prefix = (rewrite: string, boost = 1) => ({ prefix: { name: { value: 'fr', rewrite, boost } } });

describe('pattern rewrites', () => {
  it('constant_score (the default) and constant_score_boolean: every match scores the boost', () => {
    expect(hits(prefix('constant_score', 2))).toEqual([
      ['1', 2],
      ['2', 2],
    ]);
    expect(hits(prefix('constant_score_boolean', 2))).toEqual(hits(prefix('constant_score_blended', 2)));
  });

  it('scoring_boolean scores as the boolean query of its terms (BM25, summed)', () => {
    const terms = { bool: { should: [{ term: { name: 'france' } }, { term: { name: 'french' } }], boost: 3 } };
    expect(hits(prefix('scoring_boolean', 3))).toEqual(hits(terms));
    expect(hits(prefix('scoring_boolean', 3))[0][1]).not.toBe(3);
  });

  it('top_terms_N keeps the first N terms in term order; top_terms_boost_N scores each as a constant', () => {
    expect(hits(prefix('top_terms_1'))).toEqual(hits({ term: { name: 'france' } }));
    expect(hits(prefix('top_terms_boost_5'))).toEqual(hits({ bool: { should: [{ constant_score: { filter: { term: { name: 'france' } } } }, { constant_score: { filter: { term: { name: 'french' } } } }] } }));
  });

  it('top_terms_blended_freqs_N: the first N terms, each scored with the largest document frequency among them', () => {
    const blended = indexAll(new SearchIndex({ keyword: ['id'] }), [
      ['1', { name: 'frame' }],
      ['2', { name: 'frame' }],
      ['3', { name: 'frost' }],
      ['4', { name: 'other' }],
    ]);
    const scored = (rewrite: string) => blended.search({ query: { prefix: { name: { value: 'fr', rewrite } } }, from: 0, size: 10 }).hits.map((h) => [h._id, h._score]);
    const [[, frame]] = scored('top_terms_blended_freqs_5');
    // frost (1 document) scores as if it were in 2, like frame
    expect(scored('top_terms_blended_freqs_5')).toEqual([
      ['1', frame],
      ['2', frame],
      ['3', frame],
    ]);
    expect(scored('top_terms_5')[0][0]).toBe('3'); // on its own statistics, the rarer term scores more
    expect(scored('top_terms_5')[0][1]).toBeGreaterThan(frame as number);
    expect(scored('top_terms_blended_freqs_1').map((h) => h[0])).toEqual(['1', '2']);
  });

  it('the boolean rewrites may expand to at most MAX_CLAUSE_COUNT terms', () => {
    const wide = (rewrite: string) => ({ wildcard: { name: { value: '*', rewrite } } });
    expect(hits(wide('constant_score')).length).toBe(3);
    for (const rewrite of ['scoring_boolean', 'constant_score_boolean']) {
      try {
        hits(wide(rewrite));
        throw new Error('not refused');
      } catch (err) {
        expect(err).toBeInstanceOf(QueryLimitError);
        expect((err as QueryLimitError).limit).toBe('too_many_clauses');
        expect((err as QueryLimitError).props.limit).toBe(2);
      }
    }
    // top_terms_N is capped at the limit instead
    expect(hits(wide('top_terms_100')).length).toBeGreaterThan(0);
  });
});
