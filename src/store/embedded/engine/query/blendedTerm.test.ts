import { InvertedIndex } from '../invertedIndex';
import { IndexMapping } from '../mapping';
import { blendDocFreqs, blendedTermQuery, TermFieldStats } from './blendedTerm';

const stats = (docFreq: number, docCount = 10, sumTotalTermFreq = 20): TermFieldStats => ({ docFreq, docCount, sumTotalTermFreq });

describe('BlendedTermQuery.blend (document frequencies)', () => {
  it('leaves one field as it is', () => {
    expect(blendDocFreqs([stats(3)], 10)).toEqual([3]);
  });

  it('gives the most frequent field the largest frequency, and each less frequent one one more', () => {
    // max = 3: the field with 3 keeps 3, the field with 1 gets 3 + 1 (a bias toward the common field)
    expect(blendDocFreqs([stats(3), stats(1)], 10)).toEqual([3, 4]);
    expect(blendDocFreqs([stats(1), stats(3)], 10)).toEqual([4, 3]);
    // equal frequencies get the same; each strictly lower one adds one
    expect(blendDocFreqs([stats(2), stats(2), stats(1)], 10)).toEqual([2, 2, 3]);
    expect(blendDocFreqs([stats(5), stats(3), stats(1)], 10)).toEqual([5, 6, 7]);
  });

  it('leaves the fields without the term without it, and changes nothing when no field has it', () => {
    expect(blendDocFreqs([stats(0), stats(2)], 10)).toEqual([0, 2]);
    expect(blendDocFreqs([stats(0), stats(0)], 10)).toEqual([0, 0]);
  });

  it("caps each at its field's docCount and at maxDoc, itself capped at the smallest sumTotalTermFreq of the fields holding the term", () => {
    expect(blendDocFreqs([stats(5), stats(1, 2)], 10)).toEqual([5, 2]);
    expect(blendDocFreqs([stats(9), stats(1)], 9)).toEqual([9, 9]);
    // minSumTTF 2 (the second field): maxDoc becomes 2
    expect(blendDocFreqs([stats(3, 10, 4), stats(1, 10, 2)], 10)).toEqual([2, 2]);
    // a field without the term does not lower maxDoc
    expect(blendDocFreqs([stats(3, 10, 40), stats(0, 10, 1)], 10)).toEqual([3, 0]);
  });
});

describe('BlendedTermQuery.dismaxBlendedQuery', () => {
  const mapping = new IndexMapping({ text: ['first', 'last'] });
  const index = new InvertedIndex();
  [
    { first: 'paul', last: 'simon' },
    { first: 'simon', last: 'garfunkel' },
    { first: 'carly', last: 'simon' },
  ].forEach((doc, i) => index.addSource(String(i), doc, mapping));

  it('rewrites to a dis_max of the fields\' term queries scored with the blended frequencies, each with its boost', () => {
    const query = blendedTermQuery('simon', [{ field: 'first', boost: 1 }, { field: 'last', boost: 2 }], 0.5);
    expect(query.expand!(index)).toEqual({
      type: 'disMax',
      tieBreaker: 0.5,
      disjuncts: [
        { type: 'term', field: 'first', term: 'simon', docFreq: 3 },
        { type: 'boost', boost: 2, query: { type: 'term', field: 'last', term: 'simon', docFreq: 2 } },
      ],
    });
    expect([...query.docs(index)]).toEqual([0, 1, 2]);
  });

  it('scores one field with its own statistics, and a field without the term not at all', () => {
    expect(blendedTermQuery('simon', [{ field: 'first', boost: 1 }], 0).expand!(index)).toEqual({ type: 'disMax', tieBreaker: 0, disjuncts: [{ type: 'term', field: 'first', term: 'simon' }] });
    const absent = blendedTermQuery('paul', [{ field: 'first', boost: 1 }, { field: 'nothing', boost: 1 }], 0).expand!(index);
    expect(absent).toEqual({ type: 'disMax', tieBreaker: 0, disjuncts: [{ type: 'term', field: 'first', term: 'paul', docFreq: 1 }, { type: 'term', field: 'nothing', term: 'paul' }] });
  });

  it('has an identity of its term, fields, boosts and tie breaker', () => {
    const key = (tie: number, boost = 1) => blendedTermQuery('simon', [{ field: 'first', boost }, { field: 'last', boost: 1 }], tie).key;
    expect(key(0)).toBe(key(0));
    expect(key(0)).not.toBe(key(0.5));
    expect(key(0)).not.toBe(key(0, 2));
  });
});
