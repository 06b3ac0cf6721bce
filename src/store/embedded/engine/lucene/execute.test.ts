import { InvertedIndex } from '../invertedIndex';
import { IndexMapping } from '../mapping';
import { LQuery, Occur, booleanQuery, boostQuery, constantScore, disMax, leaf, matchNone, termQuery } from './query';
import { execute } from './execute';

const f = Math.fround;
const TINY = 2 ** -24; // half an ulp of 1 in float: 1 + TINY rounds back to 1 in float arithmetic

function fixture(): InvertedIndex {
  const mapping = new IndexMapping();
  const index = new InvertedIndex();
  for (const [id, doc] of [
    ['0', { t: 'a b' }],
    ['1', { t: 'a' }],
    ['2', { t: 'b' }],
  ] as const) {
    index.addSource(id, doc, mapping);
  }
  return index;
}

/** A constant-score leaf on some documents, scoring `boost`. */
const docs = (key: string, list: number[], boost = 1): LQuery => boostQuery(leaf(key, () => list), boost);
const bool = (clauses: [Occur, LQuery][], msm = 0) => booleanQuery(clauses.map(([occur, query]) => ({ occur, query })), msm);

describe('execute', () => {
  const index = fixture();

  it('sums disjunctions in double and rounds once', () => {
    const q = bool([
      ['should', docs('x', [0], 1)],
      ['should', docs('y', [0], TINY)],
      ['should', docs('z', [0], TINY)],
    ]);
    // double: 1 + 2^-24 + 2^-24 = 1 + 2^-23, representable in float
    expect(execute(q, index, 1, true)?.get(0)).toBe(f(1 + TINY + TINY));
    expect(f(1 + TINY + TINY)).toBe(1.0000001192092896);
  });

  it('adds required and optional scores in float (ReqOptSumScorer)', () => {
    const q = bool([
      ['must', docs('x', [0], 1)],
      ['must', docs('y', [0], TINY)],
      ['should', docs('z', [0], TINY)],
    ]);
    // conjunction: (float)(1 + 2^-24) = 1 (ties to even); then 1 + 2^-24 in float = 1
    expect(execute(q, index, 1, true)?.get(0)).toBe(f(f(1 + TINY) + TINY));
    expect(f(f(1 + TINY) + TINY)).toBe(1);
  });

  it('requires a match of the SHOULD clauses only without MUST or FILTER', () => {
    const q = bool([['should', docs('x', [0])], ['filter', docs('y', [1, 2])]]);
    expect([...(execute(q, index, 1, true) as Map<number, number>)]).toEqual([
      [1, 0],
      [2, 0],
    ]);
    const pure = bool([['should', docs('x', [0])], ['must_not', docs('y', [1])]]);
    expect([...(execute(pure, index, 1, true) as Map<number, number>).keys()]).toEqual([0]);
  });

  it('applies minimum_should_match', () => {
    const q = bool(
      [
        ['should', docs('x', [0, 1])],
        ['should', docs('y', [0])],
        ['should', docs('z', [1, 2])],
      ],
      2,
    );
    expect([...(execute(q, index, 1, true) as Map<number, number>).keys()].sort()).toEqual([0, 1]);
  });

  it('drops SHOULD clauses without scorer and promotes the rest when they equal minimum_should_match', () => {
    const q = bool(
      [
        ['should', termQuery('t', 'absent')],
        ['should', docs('y', [0, 1], 2)],
        ['must', docs('x', [0, 2], 1)],
      ],
      1,
    );
    const out = execute(q, index, 1, true) as Map<number, number>;
    expect([...out]).toEqual([[0, f(1 + 2)]]);
  });

  it('scores a lone filter 0 and constant scores their boost', () => {
    expect([...(execute(bool([['filter', docs('x', [1])], ['must_not', docs('y', [2])]]), index, 1, true) as Map<number, number>)]).toEqual([[1, 0]]);
    expect(execute(constantScore(termQuery('t', 'a')), index, 3, true)?.get(0)).toBe(3);
  });

  it('combines disjunction max scores with the tie breaker', () => {
    const q = disMax([docs('x', [0], 0.5), docs('y', [0], 2), docs('z', [0], 0.25)], 0.3);
    expect(execute(q, index, 1, true)?.get(0)).toBe(f(2 + (0.5 + 0.25) * f(0.3)));
  });

  it('returns null for queries without scorer', () => {
    expect(execute(matchNone('x'), index, 1, true)).toBeNull();
    expect(execute(termQuery('t', 'zzz'), index, 1, true)).toBeNull();
    expect(execute(termQuery('nofield', 'a'), index, 1, true)).toBeNull();
    expect(execute(bool([['must', termQuery('t', 'zzz')], ['should', termQuery('t', 'a')]]), index, 1, true)).toBeNull();
  });

  it('skips scoring when scores are not needed', () => {
    const out = execute(termQuery('t', 'a'), index, 1, false) as Map<number, number>;
    expect([...out]).toEqual([
      [0, 0],
      [1, 0],
    ]);
  });

  it('propagates boosts multiplicatively', () => {
    const q = boostQuery(bool([['should', boostQuery(constantScore(termQuery('t', 'a')), 3)]]), 0.5);
    expect(execute(q, index, 1, true)?.get(0)).toBe(f(f(3 * f(0.5))));
  });
});
