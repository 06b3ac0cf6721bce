import { InvalidQueryError, QueryLimitError } from '../../../port';
import { FieldIndex } from '../fieldIndex';
import { InvertedIndex } from '../invertedIndex';
import { evaluate } from '../lucene/evaluate';
import { LQuery, queryKey } from '../lucene/query';
import { rewrite } from '../lucene/rewrite';
import { IndexMapping } from '../mapping';
import { expectedScore } from '../testing';
import { rewriteTerms, topTerms } from './termsRewrite';

const f = Math.fround;
const mapping = new IndexMapping({ keyword: ['k'] });
const index = new InvertedIndex();
// "apple" in 3 documents, "apply" in 1, "ample" in 2: 6 documents have the field
for (const [id, k] of [
  ['1', 'apple'],
  ['2', 'apple'],
  ['3', 'apple'],
  ['4', 'apply'],
  ['5', 'ample'],
  ['6', 'ample'],
] as const) {
  index.addSource(id, { k }, mapping);
}
const field = index.field('k') as FieldIndex;
const id = (term: string) => field.termId(term);
// in term order
const ids = [id('ample'), id('apple'), id('apply')];
const scores = (query: LQuery) => {
  const matches = evaluate(rewrite(query), index, 1, true);
  if (matches === null) return [];
  const list = matches.toList();
  return Array.from({ length: list.size }, (_, i) => [index.idOfDoc(list.docs![i]), list.scoreAt(i)]);
};
// keyword fields have no norms: dl 1, avgdl = sumTotalTermFreq / docCount = 6 / 6
const keyword = (n: number, boost = 1) => expectedScore({ N: 6, n, freq: 1, dl: 1, avgdl: 1, boost });

describe('topTerms (TopTermsRewrite: best boosts, ties to the smaller term, back in term order)', () => {
  it('keeps the best N and puts them back in term order', () => {
    const boosts = [0.5, 1, 0.75, 0.75, 0.9];
    expect(topTerms(5, (i) => boosts[i], 3)).toEqual([1, 2, 4]);
    expect(topTerms(5, (i) => boosts[i], 4)).toEqual([1, 2, 3, 4]);
    expect(topTerms(5, (i) => boosts[i], 10)).toEqual([0, 1, 2, 3, 4]);
    expect(topTerms(3, () => 1, 2)).toEqual([0, 1]); // all equal: the first terms
    expect(topTerms(2, (i) => [-Infinity, -1][i], 1)).toEqual([1]);
  });
});

describe('rewriteTerms', () => {
  it('top_terms_blended_freqs_N scores every term with the largest document frequency of those kept', () => {
    const boosts = Float32Array.from([f(0.8), 1, f(0.8)]); // ample, apple, apply
    const query = rewriteTerms('k', field, ids, boosts, { kind: 'top_terms_blended', size: 50 }, 4096);
    // idf(3, 6) = ln(1 + 3.5 / 3.5) = ln 2 for all three; weight = 2.2 * boost * idf; normInverse =
    // 1 / (1.2 * (0.25 + 0.75 * 1 / 1)) = 1 / 1.2; score = weight - weight / (1 + 1 / 1.2) = weight / 2.2:
    // ln 2 for apple (boost 1), 0.8 ln 2 for the others, within float rounding
    const apple = keyword(3);
    const other = keyword(3, f(0.8));
    expect(apple).toBe(f(0.6931471228599548));
    expect(apple).toBeCloseTo(Math.LN2, 6);
    expect(other).toBeCloseTo(0.8 * Math.LN2, 6);
    expect(scores(query)).toEqual([
      ['1', apple],
      ['2', apple],
      ['3', apple],
      ['4', other],
      ['5', other],
      ['6', other],
    ]);
    // without blending, "apply" (1 document) would score more than "apple"
    const plain = rewriteTerms('k', field, ids, boosts, { kind: 'top_terms', size: 50, boostOnly: false }, 4096);
    expect(scores(plain)[3]).toEqual(['4', keyword(1, f(0.8))]);
    expect(keyword(1, f(0.8))).toBeGreaterThan(apple);
  });

  it('blends only the terms kept: max_expansions drops the others first (ties to the smaller term)', () => {
    const boosts = Float32Array.from([f(0.8), 1, f(0.8)]);
    const two = rewriteTerms('k', field, ids, boosts, { kind: 'top_terms_blended', size: 2 }, 4096);
    // apple (1) and ample (0.8, before apply): blended df = max(3, 2) = 3
    expect(scores(two).map((s) => s[0])).toEqual(['1', '2', '3', '5', '6']);
    const one = rewriteTerms('k', field, [id('apply')], null, { kind: 'top_terms_blended', size: 2 }, 4096);
    expect(scores(one)).toEqual([['4', keyword(1)]]); // one term: its own statistics
    // the size is capped at maxClauseCount
    expect(scores(rewriteTerms('k', field, ids, boosts, { kind: 'top_terms_blended', size: 50 }, 1)).map((s) => s[0])).toEqual(['1', '2', '3']);
  });

  it('top_terms_N scores each term on its own statistics, top_terms_boost_N each as its boost', () => {
    const boosts = Float32Array.from([f(0.5), 1, f(0.75)]);
    expect(scores(rewriteTerms('k', field, ids, boosts, { kind: 'top_terms', size: 2, boostOnly: false }, 4096))).toEqual([
      ['1', keyword(3)],
      ['2', keyword(3)],
      ['3', keyword(3)],
      ['4', keyword(1, f(0.75))],
    ]);
    expect(scores(rewriteTerms('k', field, ids, boosts, { kind: 'top_terms', size: 3, boostOnly: true }, 4096)).map((s) => s[1])).toEqual([1, 1, 1, f(0.75), f(0.5), f(0.5)]);
  });

  it('floors negative boosts at 0 for the top terms rewrites, and refuses them for scoring_boolean as BoostQuery does', () => {
    const boosts = Float32Array.from([-1, 1, -Infinity]);
    expect(scores(rewriteTerms('k', field, ids, boosts, { kind: 'top_terms_blended', size: 3 }, 4096)).map((s) => s[1])).toEqual([keyword(3), keyword(3), keyword(3), 0, 0, 0]);
    expect(() => rewriteTerms('k', field, ids, boosts, { kind: 'scoring_boolean' }, 4096)).toThrow(new InvalidQueryError('boost must be a positive float, got -1.0'));
  });

  it('scoring_boolean keeps every term with its boost, up to maxClauseCount', () => {
    const boosts = Float32Array.from([f(0.5), 1, f(0.75)]);
    const query = rewriteTerms('k', field, ids, boosts, { kind: 'scoring_boolean' }, 4096);
    expect(scores(query).map((s) => s[1])).toEqual([keyword(3), keyword(3), keyword(3), keyword(1, f(0.75)), keyword(2, f(0.5)), keyword(2, f(0.5))]);
    expect(() => rewriteTerms('k', field, ids, null, { kind: 'scoring_boolean' }, 2)).toThrow(QueryLimitError);
  });

  it('builds nothing from no terms, and the blended term queries keep a term query identity', () => {
    expect(rewriteTerms('k', field, [], null, { kind: 'top_terms_blended', size: 5 }, 4096).type).toBe('matchNone');
    const blended = rewriteTerms('k', field, [id('apply')], null, { kind: 'top_terms_blended', size: 5 }, 4096);
    const single = rewrite(blended);
    expect(single).toMatchObject({ type: 'term', term: 'apply', docFreq: 1 });
    expect(queryKey(single)).toBe(queryKey({ type: 'term', field: 'k', term: 'apply' }));
  });
});
