import fc from 'fast-check';
import { UNLIMITED, runToEnd } from '../budget/budget';
import { SearchIndex } from '../searchIndex';
import { buildQuery, parseSearchQuery } from '../search';
import { IndexMapping } from '../mapping';
import { InvertedIndex } from '../invertedIndex';
import { firstDocsSteps } from './firstDocs';

const mapping = new IndexMapping({ keyword: ['tenant'] });
const index = new InvertedIndex();
for (let i = 0; i < 300; i++) index.addSource(`d${i}`, { tenant: i % 3 === 0 ? 'a' : 'b', n: i, name: i % 2 === 0 ? 'even thing' : 'odd thing' }, mapping);
const first = (query: Record<string, unknown> | undefined, filter: Record<string, unknown> | null, limit: number) =>
  runToEnd(firstDocsSteps(buildQuery(parseSearchQuery(query, filter), mapping, Date.now()), index, limit, true, UNLIMITED));

describe('firstDocs: the first matches of a constant-scoring query', () => {
  it('walks match_all under a filter from the first document, stopping at the limit', () => {
    const out = first(undefined, { term: { tenant: 'a' } }, 5);
    expect(Array.from(out?.docs.subarray(0, out.size) ?? [])).toEqual([0, 3, 6, 9, 12]);
    expect(out?.score).toBe(1);
    expect(first(undefined, { term: { tenant: 'a' } }, 1000)?.size).toBe(100);
  });

  it('takes must_not and ranges, and leaves scoring queries to the full evaluation', () => {
    const out = first({ bool: { filter: [{ range: { n: { gte: 10 } } }], must_not: [{ term: { tenant: 'a' } }] } }, null, 3);
    expect(Array.from(out?.docs.subarray(0, out.size) ?? [])).toEqual([10, 11, 13]);
    expect(out?.score).toBe(0);
    expect(first({ match: { name: 'even' } }, null, 3)).toBeNull();
    expect(first({ term: { tenant: 'zzz' } }, null, 3)?.size).toBe(0);
  });

  it('gives a search with track_total_hits: false the hits of the exact search', () => {
    const search = new SearchIndex({ keyword: ['tenant'] });
    for (let i = 0; i < 50; i++) search.put(`d${i}`, { tenant: i % 2 === 0 ? 'a' : 'b' });
    const exact = search.search({ from: 5, size: 5 }, { term: { tenant: 'a' } });
    const early = search.search({ from: 5, size: 5, track_total_hits: false }, { term: { tenant: 'a' } });
    expect(early.hits).toEqual(exact.hits);
    expect(early.total).toBe(-1);
    expect(search.search({ from: 0, size: 5, track_total_hits: 7 }, { term: { tenant: 'a' } })).toMatchObject({ total: 7, total_relation: 'gte' });
  });

  it('reads a tenant filter not in the filter cache from its postings, stopping at the first matches', () => {
    const tenants = new InvertedIndex();
    for (let i = 0; i < 400; i++) tenants.addSource(`d${i}`, { tenant: i % 5 === 0 ? 't1' : i % 7 === 0 ? '*' : 't2' }, mapping);
    const walk = (limit: number) => {
      const out = runToEnd(firstDocsSteps(buildQuery(parseSearchQuery(undefined, { terms: { tenant: ['t1', '*'] } }), mapping, Date.now()), tenants, limit, false, UNLIMITED));
      return Array.from(out?.docs.subarray(0, out.size) ?? []);
    };
    expect(walk(7)).toEqual([0, 5, 7, 10, 14, 15, 20]); // t1: 0, 5, 10, 15, 20; *: 7, 14
    // the set was not built, nor cached
    expect(tenants.filterCache.size).toBe(0);
    expect(walk(1000)).toHaveLength(80 + 46);
  });

  it('gives a page without the total the hits of the exact search when the tenant filter is not cached', () => {
    const search = new SearchIndex({ keyword: ['tenant'] });
    for (let i = 0; i < 400; i++) search.put(`d${i}`, { tenant: i % 5 === 0 ? 't1' : i % 7 === 0 ? '*' : 't2' });
    const tenant = { terms: { tenant: ['t1', '*'] } };
    const early = search.search({ from: 3, size: 4, track_total_hits: false }, tenant);
    expect(early.hits.map((h) => h._id)).toEqual(['d10', 'd14', 'd15', 'd20']);
    expect(early.total).toBe(-1);
    expect(search.search({ from: 0, size: 2, track_total_hits: 100 }, tenant)).toMatchObject({ total: 100, total_relation: 'gte' });
    expect(search.search({ from: 0, size: 2, track_total_hits: 500 }, tenant)).toMatchObject({ total: 126, total_relation: 'eq' });
    const exact = search.search({ from: 3, size: 4 }, tenant);
    expect(exact.hits).toEqual(early.hits);
    expect(exact.total).toBe(126);
  });

  it('gives the hits of the exact search, tenant filters cached or not, with removed documents, ranges and must_not', () => {
    const term = fc.constantFrom('a', 'b', 'c', '*', 'none');
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.array(term, { minLength: 0, maxLength: 2 }), fc.integer({ min: 0, max: 20 })), { minLength: 1, maxLength: 120 }),
        fc.array(fc.nat(), { maxLength: 20 }),
        fc.array(term, { minLength: 1, maxLength: 3 }),
        fc.record({ alone: fc.boolean(), range: fc.option(fc.integer({ min: 0, max: 20 }), { freq: 2 }), not: fc.option(term, { freq: 2 }), cached: fc.boolean(), terms2: fc.option(fc.array(term, { minLength: 1, maxLength: 2 }), { freq: 2 }) }),
        fc.record({ from: fc.integer({ min: 0, max: 20 }), size: fc.integer({ min: 0, max: 10 }), track: fc.constantFrom<false | number>(false, 0, 1, 5, 30) }),
        (docs, removals, tenants, clauses, page) => {
          const search = new SearchIndex({ keyword: ['tenant'] });
          docs.forEach(([tenant, n], i) => search.put(`d${i}`, { tenant, n }));
          // the postings written (a search reads them), then documents removed: tombstones in them
          search.search({ query: { terms: { tenant: ['a', 'b', 'c', '*'] } }, from: 0, size: 0 });
          for (const r of removals) search.remove(`d${r % docs.length}`);
          const filter: Record<string, unknown>[] = [];
          if (clauses.range !== null) filter.push({ range: { n: { gte: clauses.range } } });
          if (clauses.terms2 !== null) filter.push({ terms: { tenant: clauses.terms2 } });
          // the terms alone (no other part tells the live documents), or under the tenant filter
          const alone = clauses.alone;
          const query = alone ? { bool: { filter: [{ terms: { tenant: tenants } }] } } : { bool: { filter, ...(clauses.not !== null ? { must_not: [{ term: { tenant: clauses.not } }] } : {}) } };
          const tenantFilter = alone ? null : { terms: { tenant: tenants } };
          if (clauses.cached) search.search({ query: alone ? query : { match_all: {} }, from: 0, size: 1 }, tenantFilter);
          // (before the exact search, which caches the tenant filter)
          const early = search.search({ query, from: page.from, size: page.size, track_total_hits: page.track }, tenantFilter);
          const exact = search.search({ query, from: page.from, size: page.size }, tenantFilter);
          expect(early.hits).toEqual(exact.hits);
          if (page.track === false) expect(early.total).toBe(-1);
          else expect([early.total, early.total_relation]).toEqual(exact.total > page.track ? [page.track, 'gte'] : [exact.total, 'eq']);
        },
      ),
      { numRuns: 300, seed: 19 },
    );
  });
});
