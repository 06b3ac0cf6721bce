import { InvertedIndex } from '../invertedIndex';
import { IndexMapping } from '../mapping';
import { evaluate, filterMatches, leafDocs } from './evaluate';
import { MATCH_ALL, booleanQuery, constantScore, leaf, termQuery } from './query';
import { termsIn } from '../query/leaves';

function fixture(): InvertedIndex {
  const mapping = new IndexMapping({ keyword: ['k'] });
  const index = new InvertedIndex();
  for (let i = 0; i < 200; i++) {
    const doc = { k: i % 50 === 0 ? 'rare' : 'common', t: i % 2 === 0 ? 'even' : 'odd' };
    index.addSource(`d${i}`, doc, mapping);
  }
  return index;
}

describe('evaluate', () => {
  it('answers filters on frequent terms with cached bitsets, rare ones with posting lists', () => {
    const index = fixture();
    const common = filterMatches(termQuery('k', 'common'), index);
    expect(common?.isBits).toBe(true);
    expect(common?.size).toBe(196);
    expect(index.filterCache.size).toBe(1);
    const rare = filterMatches(termQuery('k', 'rare'), index);
    expect(rare?.isBits).toBe(false);
    expect([...(rare?.docList() ?? [])]).toEqual([0, 50, 100, 150]);
    expect(filterMatches(termQuery('k', 'none'), index)).toBeNull();
    index.remove('d1');
    expect(filterMatches(termQuery('k', 'common'), index)?.size).toBe(195);
  });

  it('caches leaves with document sets, not leaves defined by a function only', () => {
    const index = fixture();
    expect(leafDocs(termsIn('k', ['rare']) as never, index).size).toBe(4);
    expect(index.filterCache.size).toBe(1);
    expect([...leafDocs(leaf('plain', () => [5, 3, 5]) as never, index).docList()]).toEqual([3, 5]);
    expect(index.filterCache.size).toBe(1);
  });

  it('mixes bitsets and lists in one boolean query', () => {
    const index = fixture();
    const query = booleanQuery([
      { occur: 'must', query: termQuery('t', 'even') },
      { occur: 'filter', query: termQuery('k', 'common') },
      { occur: 'must_not', query: constantScore(termQuery('k', 'rare')) },
    ]);
    const m = evaluate(query, index, 1, true);
    expect(m?.size).toBe(96);
    expect(evaluate(booleanQuery([{ occur: 'filter', query: MATCH_ALL }, { occur: 'must_not', query: termQuery('t', 'odd') }]), index, 1, false)?.size).toBe(100);
  });
});
