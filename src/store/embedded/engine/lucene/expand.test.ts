import { QueryLimitError } from '../../../port';
import { UNLIMITED, runToEnd } from '../budget/budget';
import { InvertedIndex } from '../invertedIndex';
import { IndexMapping } from '../mapping';
import { expandSteps, recordClauseCount } from './expand';
import { LQuery, LeafQuery, booleanQuery, boostQuery, queryKey, termQuery } from './query';

const index = new InvertedIndex();
index.addSource('1', { k: 'a' }, new IndexMapping({ keyword: ['k'] }));
const expand = (query: LQuery) => runToEnd(expandSteps(query, index, UNLIMITED));

/** A leaf that stands for the disjunction of `terms`, and counts its walks. */
function multiTerm(terms: string[]): LeafQuery & { prepared: number } {
  const leaf = {
    type: 'leaf' as const,
    key: `test:${terms.join()}`,
    prepared: 0,
    docs: () => [],
    *prepare() {
      leaf.prepared++;
    },
    expand: () => booleanQuery(terms.map((t) => ({ occur: 'should' as const, query: termQuery('k', t) }))),
  };
  return leaf;
}

const should = (...queries: LQuery[]) => booleanQuery(queries.map((query) => ({ occur: 'should' as const, query })));

describe('expandSteps (IndexSearcher.rewrite of multi-term queries)', () => {
  it('leaves a query without multi-term leaves as it is (the same object)', () => {
    const query = should(termQuery('k', 'a'), boostQuery(termQuery('k', 'b'), 2));
    expect(expand(query)).toBe(query);
  });

  it('walks the dictionary (prepare), then puts the terms where the leaf was and rewrites the whole query', () => {
    const leaf = multiTerm(['a', 'b']);
    const expanded = expand(should(leaf, termQuery('k', 'c')));
    expect(leaf.prepared).toBe(1);
    // the pure disjunction of the terms is flattened into its parent, as Lucene's BooleanQuery.rewrite does
    expect(queryKey(expanded)).toBe(queryKey(should(termQuery('k', 'a'), termQuery('k', 'b'), termQuery('k', 'c'))));
  });

  it('merges a term two leaves expand to into one clause with the summed boost', () => {
    const expanded = expand(should(multiTerm(['a', 'b']), multiTerm(['b'])));
    expect(queryKey(expanded)).toBe(queryKey(should(termQuery('k', 'a'), boostQuery(termQuery('k', 'b'), 2))));
  });

  it('reaches leaves under boosts, constant scores, bools and dis_max', () => {
    const nested = booleanQuery([{ occur: 'must', query: boostQuery(multiTerm(['a']), 3) }]);
    expect(queryKey(expand(nested))).toBe(queryKey(boostQuery(termQuery('k', 'a'), 3)));
  });

  it('counts the terms against maxClauseCount with the rest of the query (getNumClausesCheckVisitor)', () => {
    const query = should(multiTerm(['a', 'b']), multiTerm(['c', 'd']));
    recordClauseCount(query, 2, 3);
    try {
      expand(query);
      throw new Error('not refused');
    } catch (err) {
      expect(err).toBeInstanceOf(QueryLimitError);
      expect((err as QueryLimitError).limit).toBe('too_many_clauses');
    }
    const fits = should(multiTerm(['a', 'b']), multiTerm(['c', 'd']));
    recordClauseCount(fits, 2, 4);
    expect(expand(fits).type).toBe('bool');
  });
});
