import { InvertedIndex } from '../invertedIndex';
import { IndexMapping } from '../mapping';
import { evaluate } from './evaluate';
import { Matches } from './matches';
import { MATCH_ALL, booleanQuery, boostQuery, leaf, termQuery } from './query';
import { disjunctionShape, runDisjunction } from './termDisjunction';
import { topByScore } from './topDocs';

const t = (term: string) => termQuery('txt', term);

describe('term disjunctions', () => {
  it('recognize a match query, alone or under a bool with filters', () => {
    const d = booleanQuery([
      { occur: 'should', query: t('a') },
      { occur: 'should', query: boostQuery(t('b'), 2) },
    ]);
    expect(disjunctionShape(d)?.terms.map((x) => [x.query.term, x.boost])).toEqual([
      ['a', 1],
      ['b', 2],
    ]);
    expect(disjunctionShape(boostQuery(t('a'), 3))?.terms[0].boost).toBe(3);
    const filtered = disjunctionShape(booleanQuery([{ occur: 'must', query: d }, { occur: 'filter', query: MATCH_ALL }, { occur: 'must_not', query: t('c') }]));
    expect(filtered?.filters).toEqual([MATCH_ALL]);
    expect(filtered?.mustNot.length).toBe(1);
    // other shapes go to the general path
    expect(disjunctionShape(booleanQuery([{ occur: 'must', query: t('a') }, { occur: 'must', query: t('b') }]))).toBeNull();
    expect(disjunctionShape(booleanQuery([{ occur: 'should', query: t('a') }, { occur: 'should', query: t('b') }], 2))).toBeNull();
    expect(disjunctionShape(booleanQuery([{ occur: 'must', query: d }, { occur: 'should', query: t('c') }]))).toBeNull();
    expect(disjunctionShape(booleanQuery([{ occur: 'must', query: d }], 1))).toBeNull();
    expect(disjunctionShape(MATCH_ALL)).toBeNull();
  });

  it('count every match and rank the top k as the general evaluator does, skipping what cannot compete', () => {
    const mapping = new IndexMapping();
    const index = new InvertedIndex();
    const words = ['a', 'b', 'c', 'd'];
    for (let i = 0; i < 3000; i++) {
      const text = Array.from({ length: 1 + (i % 7) }, (_, j) => words[(i * (j + 3) + j * j) % 4]).join(' ');
      const doc = { txt: text };
      index.addSource(`d${i}`, doc, mapping);
    }
    for (let i = 0; i < 3000; i += 5) index.remove(`d${i}`);
    const d = booleanQuery([
      { occur: 'should', query: t('a') },
      { occur: 'should', query: boostQuery(t('d'), 1.5) },
      { occur: 'should', query: t('zzz') },
    ]);
    const odd = leaf('odd', (ix) => [...ix.live].filter((doc) => doc % 2 === 1));
    for (const query of [d, booleanQuery([{ occur: 'must', query: d }, { occur: 'filter', query: odd }, { occur: 'must_not', query: t('b') }])]) {
      const expected = evaluate(query, index, 1, true) as Matches;
      for (const k of [0, 1, 10, 100, 5000]) {
        const result = runDisjunction(disjunctionShape(query)!, index, k);
        expect(result?.total).toBe(expected.size);
        expect(result?.top).toEqual(topByScore(expected, k));
        expect(result?.docs).toBeUndefined();
        // listed for the aggregations: every match in index order, as evaluated
        const listed = runDisjunction(disjunctionShape(query)!, index, k, true);
        expect(listed?.top).toEqual(result?.top);
        expect(Array.from(listed?.docs ?? [])).toEqual(Array.from(expected.toList().docs as Int32Array).slice(0, expected.size));
      }
    }
    expect(runDisjunction(disjunctionShape(t('zzz'))!, index, 10)).toBeNull();
  });

  it('rank a single term block by block, skipping blocks that cannot compete, as the general evaluator does', () => {
    const mapping = new IndexMapping();
    const index = new InvertedIndex();
    for (let i = 0; i < 5000; i++) {
      // lengths 1 to 9, a few documents with the term twice or three times, late in the index
      const repeats = i % 1013 === 0 ? 3 : i % 331 === 0 ? 2 : 1;
      const text = [...Array.from({ length: repeats }, () => 'a'), ...Array.from({ length: i % 9 }, () => 'b')].join(' ');
      const doc = { txt: i % 4 === 3 ? 'b' : text };
      index.addSource(`d${i}`, doc, mapping);
    }
    for (const query of [t('a'), boostQuery(t('a'), 2), t('b')]) {
      const expected = evaluate(query, index, 1, true) as Matches;
      for (const k of [0, 1, 3, 10, 200, 6000]) {
        const result = runDisjunction(disjunctionShape(query)!, index, k);
        expect(result?.total).toBe(expected.size);
        expect(result?.top).toEqual(topByScore(expected, k));
        expect(Array.from(runDisjunction(disjunctionShape(query)!, index, k, true)?.docs ?? [])).toEqual(Array.from(expected.toList().docs as Int32Array).slice(0, expected.size));
      }
    }
  });
});
