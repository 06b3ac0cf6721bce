import fc from 'fast-check';
import { QueryDsl } from '../../../port';
import { InvertedIndex } from '../invertedIndex';
import { SearchIndex } from '../searchIndex';
import { IndexMapping } from '../mapping';
import { DEFAULT_LIMITS } from '../limits';
import { buildQuery, parseSearchQuery } from '../search';
import { rangeSortPlan, splitRange } from './rangeSort';
import { resolveSort, parseSort } from '../sort';

const RANGE = { range: { rank: { gte: 3, lt: 9 } } };

describe('splitRange', () => {
  const index = new SearchIndex({ keyword: ['tag'] });
  index.put('a', { rank: 1, tag: 'x', name: 'one' });
  const built = (query: QueryDsl, filter: QueryDsl | null = null) => buildQuery(parseSearchQuery(query, filter, DEFAULT_LIMITS), index.mappingCopy(), Date.now(), DEFAULT_LIMITS);

  it('finds a range the query requires, alone, in a filter or a must, under the caller filter', () => {
    expect(splitRange(built(RANGE), 'rank')).toMatchObject({ range: { lower: 3, includeLower: true, upper: 9, includeUpper: false }, rest: null });
    expect(splitRange(built({ bool: { filter: [RANGE] } }), 'rank')?.rest).toBeNull();
    const withTenant = splitRange(built({ bool: { filter: [RANGE], must: [{ match: { name: 'one' } }] } }, { terms: { tag: ['x'] } }), 'rank');
    expect(withTenant?.range.lower).toBe(3);
    expect(withTenant?.rest?.type).toBe('bool');
  });

  it('does not take a range that is optional, negated, or on another field', () => {
    expect(splitRange(built({ bool: { should: [RANGE, { term: { tag: 'x' } }] } }), 'rank')).toBeNull();
    expect(splitRange(built({ bool: { must_not: [RANGE] } }), 'rank')).toBeNull();
    expect(splitRange(built(RANGE), 'other')).toBeNull();
  });

  it('plans only a sort whose first clause is that numeric field, while its documents hold one value each', () => {
    const inverted = new InvertedIndex();
    const m = new IndexMapping({ keyword: ['tag'] });
    inverted.addSource('a', { rank: 1, tag: 'x' }, m);
    const query = buildQuery(parseSearchQuery({ bool: { filter: [RANGE] } }, null, DEFAULT_LIMITS), m, Date.now(), DEFAULT_LIMITS);
    const plan = (sort: unknown) => rangeSortPlan(query, resolveSort(parseSort(sort)!, m, (f) => inverted.field(f)), inverted);
    expect(plan([{ rank: 'desc' }, '_doc'])).toMatchObject({ descending: true, rest: null });
    expect(plan(['tag', 'rank'])).toBeNull();
    expect(plan(['_doc'])).toBeNull();
    inverted.addSource('b', { rank: [2, 3], tag: 'x' }, m);
    expect(plan(['rank'])).toBeNull();
    inverted.remove('b');
    expect(plan(['rank'])).not.toBeNull();
  });
});

interface Doc {
  rank?: number | number[];
  tag: string;
  code: string;
}

const docArb = fc.record({
  rank: fc.option(fc.integer({ min: 0, max: 12 }), { nil: undefined }),
  tag: fc.constantFrom('x', 'y'),
  code: fc.constantFrom('a', 'b', 'c'),
});

/** The same query with the range hidden from the plan (or'ed with a term no document has, which no rewrite removes): the general path. */
const hidden = (range: object) => ({ bool: { should: [range, { term: { code: 'none' } }] } });

describe('sorted ranges (lucene/rangeSort.ts) answer what the general path answers', () => {
  it('hits, sort values and totals, with ties, removals, a second sort clause, search_after, from/size, a filter', () => {
    fc.assert(
      fc.property(
        fc.array(docArb, { maxLength: 60 }),
        fc.array(fc.nat({ max: 59 }), { maxLength: 10 }),
        fc.boolean(),
        fc.record({ gte: fc.option(fc.integer({ min: -1, max: 13 }), { nil: undefined }), lt: fc.option(fc.integer({ min: -1, max: 13 }), { nil: undefined }) }),
        fc.constantFrom('asc', 'desc'),
        fc.constantFrom(null, 'code', '_doc'),
        fc.nat({ max: 6 }),
        fc.nat({ max: 8 }),
        fc.option(fc.constantFrom('x', 'y'), { nil: null }),
        fc.option(fc.integer({ min: 0, max: 12 }), { nil: null }),
        fc.boolean(),
        (docs: Doc[], removed, multi, bounds, order, second, from, size, tag, after, withMust) => {
          const index = new SearchIndex({ keyword: ['tag', 'code'] });
          index.put('mapped', { rank: 5, tag: 'y', code: 'c' }); // rank mapped whatever the documents drawn
          docs.forEach((d, i) => index.put(`d${i}`, d.rank === undefined ? { tag: d.tag, code: d.code } : { ...d }));
          if (multi && docs.length > 0) index.put('multi', { rank: [2, 10], tag: 'x', code: 'a' });
          for (const r of removed) index.remove(`d${r}`);
          const range = { range: { rank: Object.fromEntries(Object.entries(bounds).filter(([, v]) => v !== undefined)) } };
          const sort: unknown[] = [{ rank: order }];
          if (second !== null) sort.push(second === '_doc' ? '_doc' : { [second]: 'desc' });
          const filter = tag === null ? null : { term: { tag } };
          const request = (query: object) => {
            const body: Record<string, unknown> = { query, sort, from, size };
            if (after !== null && second === null) {
              body.search_after = [after];
              body.from = 0;
            }
            return body;
          };
          const must = withMust ? [{ term: { code: 'a' } }] : [];
          const fast = index.search(request({ bool: { filter: [range], must } }) as never, filter);
          const general = index.search(request({ bool: { filter: [hidden(range)], must } }) as never, filter);
          expect(fast).toEqual(general);
        },
      ),
      { numRuns: 300 },
    );
  });
});
