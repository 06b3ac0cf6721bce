import { BooleanQuery, LQuery, MATCH_ALL, Occur, booleanQuery, boostQuery, constantScore, disMax, leaf, matchNone, queryKey, sameQuery, termQuery } from './query';
import { rewrite, rewriteNoScoring } from './rewrite';

const a = termQuery('f', 'a');
const b = termQuery('f', 'b');
const c = termQuery('f', 'c');
const bool = (clauses: [Occur, LQuery][], msm = 0) => booleanQuery(clauses.map(([occur, query]) => ({ occur, query })), msm);
const same = (x: LQuery, y: LQuery) => expect(queryKey(x)).toBe(queryKey(y));

describe('rewrite (Lucene 9 rules)', () => {
  it('simplifies one-clause and empty boolean queries', () => {
    expect(rewrite(bool([])).type).toBe('matchNone');
    same(rewrite(bool([['should', a]])), a);
    same(rewrite(bool([['must', a]])), a);
    same(rewrite(bool([['should', a]], 1)), a);
    same(rewrite(bool([['filter', a]])), boostQuery(constantScore(a), 0));
    expect(rewrite(bool([['must_not', a]])).type).toBe('matchNone');
  });

  it('handles clauses that match nothing', () => {
    expect(rewrite(bool([['must', matchNone('x')], ['should', a]])).type).toBe('matchNone');
    expect(rewrite(bool([['filter', matchNone('x')], ['should', a]])).type).toBe('matchNone');
    same(rewrite(bool([['should', matchNone('x')], ['should', a]])), a);
  });

  it('drops boosts of non-scoring clauses and deduplicates them', () => {
    same(rewrite(bool([['must', a], ['filter', boostQuery(b, 3)], ['filter', b]])), bool([['must', a], ['filter', b]]));
  });

  it('detects clauses both required and excluded', () => {
    expect(rewrite(bool([['must', a], ['must_not', a]])).type).toBe('matchNone');
    expect(rewrite(bool([['should', a], ['must_not', MATCH_ALL]])).type).toBe('matchNone');
  });

  it('turns a FILTER that is also a SHOULD into a MUST', () => {
    same(rewrite(bool([['should', a], ['should', b], ['filter', a]])), bool([['must', a], ['should', b]]));
  });

  it('merges duplicate SHOULD and MUST clauses by summing boosts', () => {
    same(rewrite(bool([['should', a], ['should', a], ['should', b]])), bool([['should', boostQuery(a, 2)], ['should', b]]));
    same(rewrite(bool([['must', boostQuery(a, 0.5)], ['must', a], ['must', b]])), bool([['must', boostQuery(a, 1.5)], ['must', b]]));
    // not with minimum_should_match > 1
    const kept = bool([['should', a], ['should', a], ['should', b]], 2);
    same(rewrite(kept), kept);
  });

  it('merges the duplicates of a bool of 4,000 leaves, and a query rewritten is rewritten to itself', () => {
    const leaves = Array.from({ length: 4000 }, (_, i) => leaf(`wildcard:${i % 3000}`, () => []));
    const rewritten = rewrite(bool([['must', boostQuery(bool(leaves.map((q) => ['should', q] as [Occur, LQuery])), 2)], ['filter', a]])) as BooleanQuery;
    const inner = (rewritten.clauses[0].query as { query: BooleanQuery }).query;
    expect(inner.clauses).toHaveLength(3000);
    expect(inner.clauses.filter((c) => c.query.type === 'boost')).toHaveLength(1000);
    same(inner.clauses[0].query, boostQuery(leaves[0], 2));
    expect(rewrite(rewritten)).toBe(rewritten);
    expect(rewrite(inner)).toBe(inner);
  });

  it("tells a leaf from a query of another type whatever the leaf's key", () => {
    expect(sameQuery(leaf(queryKey(a), () => []), a)).toBe(false);
    expect(sameQuery(leaf('T["f","a"]', () => []), leaf('T["f","a"]', () => []))).toBe(true);
    expect(sameQuery(leaf('range:x', () => []), leaf('range:y', () => []))).toBe(false);
  });

  it('turns MUST match_all with filters into a constant score query on the filters', () => {
    // ConstantScore(+#a) then simplifies to ConstantScore(a)
    same(rewrite(bool([['must', MATCH_ALL], ['filter', a]])), constantScore(a));
    same(rewrite(bool([['must', boostQuery(MATCH_ALL, 2)], ['filter', a], ['should', b]])), bool([['must', boostQuery(constantScore(a), 2)], ['should', b]]));
  });

  it('flattens nested pure disjunctions into SHOULD clauses', () => {
    same(rewrite(bool([['should', bool([['should', a], ['should', b]])], ['should', c]])), bool([['should', a], ['should', b], ['should', c]]));
    // a boosted inner disjunction is not flattened
    const boosted = bool([['should', boostQuery(bool([['should', a], ['should', b]]), 2)], ['should', c]]);
    same(rewrite(boosted), boosted);
    // nor one with a minimum_should_match above 1
    const msm = bool([['should', bool([['should', a], ['should', b], ['should', c]], 2)], ['must', c]]);
    same(rewrite(msm), msm);
  });

  it('makes SHOULD clauses required when there are exactly minimum_should_match of them', () => {
    same(rewrite(bool([['should', a], ['should', b], ['must', c]], 2)), bool([['must', a], ['must', b], ['must', c]]));
    expect(rewrite(bool([['should', a], ['should', b]], 3)).type).toBe('matchNone');
  });

  it('rewrites boosts and constant scores', () => {
    same(rewrite(boostQuery(boostQuery(a, 2), 3)), boostQuery(a, 6));
    same(rewrite(boostQuery(a, 1)), a);
    same(rewrite(boostQuery(a, 0)), boostQuery(constantScore(a), 0));
    same(rewrite(constantScore(boostQuery(a, 5))), constantScore(a));
    same(rewrite(constantScore(bool([['must', a], ['must', b]]))), constantScore(bool([['filter', a], ['filter', b]])));
    expect(rewrite(constantScore(matchNone('x'))).type).toBe('matchNone');
  });

  it('rewrites disjunction max queries', () => {
    expect(rewrite(disMax([], 0)).type).toBe('matchNone');
    same(rewrite(disMax([a], 0.5)), a);
    same(rewrite(disMax([a, b], 1)), bool([['should', a], ['should', b]]));
    same(rewrite(disMax([a, matchNone('x')], 0.5)), a);
    const kept = disMax([a, b], 0.5);
    expect(rewrite(kept)).toBe(kept);
  });

  it('rewrites phrases', () => {
    same(rewrite({ type: 'phrase', field: 'f', terms: ['a'], positions: [0], slop: 0 }), a);
    expect(rewrite({ type: 'phrase', field: 'f', terms: [], positions: [], slop: 0 }).type).toBe('matchNone');
    const shifted = rewrite({ type: 'phrase', field: 'f', terms: ['a', 'b'], positions: [2, 3], slop: 0 });
    expect(shifted.type === 'phrase' && shifted.positions).toEqual([0, 1]);
  });

  it('rewrites for non-scoring use', () => {
    const q = bool([['must', a], ['should', b]]);
    same(rewriteNoScoring(q), bool([['filter', a]]));
    const pure = bool([['should', a], ['should', b]]) as BooleanQuery;
    expect(rewriteNoScoring(pure)).toBe(pure);
  });
});

describe('rewrite: function scores', () => {
  it('a function_score without functions nor min_score is its sub-query', () => {
    const sub = { type: 'term', field: 'name', term: 'france' } as const;
    const node = { type: 'functionScore', query: sub, functions: [], scoreMode: 'multiply', boostMode: 'multiply', maxBoost: 1, minScore: null, boostOutside: false } as const;
    expect(rewrite(node)).toBe(sub);
    expect(rewrite({ ...node, minScore: 1 }).type).toBe('functionScore');
  });
});
