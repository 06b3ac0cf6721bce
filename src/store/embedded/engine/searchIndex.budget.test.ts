/** Searches within a time budget, paused between slices: same answers, writes deferred, partial answers past the deadline. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SearchRequest, SearchResult } from '../../port';
import { Budget } from './budget/budget';
import { READS_PER_CHECK } from './budget/checkEvery';
import { diskReads } from './persist/diskFile';
import { SearchIndex, SearchIndexOptions } from './searchIndex';

const page = (request: Partial<SearchRequest>): SearchRequest => ({ from: 0, size: 10, ...request });
const words = ['alpha', 'beta', 'gamma', 'delta', 'epsilon'];

function filled(options: SearchIndexOptions, n = 5000): SearchIndex {
  const index = new SearchIndex(undefined, options);
  for (let i = 0; i < n; i++) index.put(`d${i}`, { name: `${words[i % 5]} ${words[(i * 7) % 5]} item${i}`, rank: i % 100 });
  return index;
}

/** A query of many clauses: every clause is a checkpoint. */
const wide = { bool: { should: Array.from({ length: 40 }, (_, i) => ({ wildcard: { name: `*${i % 10}*` } })) } };

describe('SearchIndex: searches in slices', () => {
  it('answers a paused search exactly as a search run at once', async () => {
    const reference = filled({});
    const index = filled({ sliceMs: 0 }); // every checkpoint pauses
    for (const request of [page({ query: wide }), page({ query: wide, sort: [{ rank: 'desc' }], size: 50 }), page({ query: { match: { name: 'alpha' } }, size: 20 }), page({ query: { match_all: {} }, sort: [{ rank: 'desc' }, { 'name.keyword': 'asc' }], size: 3000 })]) {
      const sliced = index.searchSliced(request);
      const expected = reference.search(request);
      expect(await sliced).toEqual(expected);
    }
    expect(index.searchSliced(page({ query: wide }))).toBeInstanceOf(Promise);
    expect(await index.countSliced(wide)).toEqual({ count: reference.count(wide) });
  });

  it('looks at the clock after READS_PER_CHECK reads from disk while it builds a page whose sources are spilled, as well as every 256 hits', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'search-budget-'));
    try {
      const reference = filled({}, 3000);
      const index = filled({ sliceMs: 0, spillDir: dir }, 3000); // every look at the clock pauses
      for (const request of [page({ query: { match_all: {} }, sort: [{ rank: 'desc' }, { 'name.keyword': 'asc' }], size: 3000 }), page({ query: { match_all: {} }, size: 3000, _source: ['name'] })]) {
        const looks = jest.spyOn(Budget.prototype, 'sliceOver');
        const readsBefore = diskReads();
        const answer = await index.searchSliced(request);
        const reads = diskReads() - readsBefore;
        expect(reads).toBeGreaterThan(1000); // (the sources of all chunks but the one being filled)
        expect(looks.mock.calls.length).toBeGreaterThanOrEqual(Math.floor(reads / READS_PER_CHECK) - 2);
        looks.mockRestore();
        expect(answer).toEqual(reference.search(request));
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('defers writes while a search is paused: the paused search reads the index as it was, later searches see the writes', async () => {
    const index = filled({ sliceMs: 0 }, 2000);
    const paused = index.searchSliced(page({ query: wide, size: 0 }));
    expect(paused).toBeInstanceOf(Promise);
    index.put('new', { name: 'alpha 1 fresh' });
    expect(index.remove('d1')).toBe(true);
    expect(index.remove('absent')).toBe(false);
    expect(index.get('new')).toEqual({ name: 'alpha 1 fresh' });
    expect(index.get('d1')).toBeUndefined();
    const after = index.searchSliced(page({ query: { match: { name: 'fresh' } } }));
    const before = (await paused) as SearchResult;
    const seen = (await after) as SearchResult;
    expect(before.total).toBe(filled({}, 2000).count(wide));
    expect(seen.hits.map((h) => h._id)).toEqual(['new']);
    expect(index.get('d1')).toBeUndefined();
    expect(index.count({ ids: { values: ['d1'] } })).toBe(0);
  });

  it('answers what it collected, with timed_out, once past its deadline', async () => {
    let now = 0;
    // each clock read is a millisecond: the deadline falls while the hits are collected
    const index = filled({ timeoutMs: 3, clock: () => now++ }, 10_000);
    const result = (await index.searchSliced(page({ query: { match_all: {} }, sort: [{ rank: 'asc' }], size: 5 }))) as SearchResult;
    expect(result.timed_out).toBe(true);
    expect(result.total).toBeGreaterThan(0);
    expect(result.total).toBeLessThan(10_000);
    expect(result.hits).toHaveLength(5);
    // stopped during the clauses: nothing collected
    now = 0;
    const early = (await index.searchSliced(page({ query: wide }))) as SearchResult;
    expect(early).toEqual({ hits: [], total: 0, timed_out: true });
    now = 0;
    expect(await index.countSliced(wide)).toEqual({ count: 0, timed_out: true });
  });

  it('determinizes a pattern between slices, and refuses one over its limit after pausing', async () => {
    const index = filled({ sliceMs: 0 }, 100);
    const complex = index.searchSliced(page({ query: { regexp: { name: '(a|b)*a(a|b){40}' } } }));
    expect(complex).toBeInstanceOf(Promise); // it paused while determinizing
    await expect(complex).rejects.toMatchObject({ limit: 'too_complex_to_determinize' });
    const fine = index.searchSliced(page({ query: { regexp: { name: '(a|b)*a(a|b){6}' } } }));
    expect(fine).toBeInstanceOf(Promise);
    expect(((await fine) as SearchResult).total).toBe(0);
  });

  it('takes the request timeout over its own default', async () => {
    let now = 0;
    const index = filled({ timeoutMs: 1_000_000, clock: () => now++ }, 3000);
    const result = (await index.searchSliced(page({ query: wide, timeout: 2 }))) as SearchResult;
    expect(result.timed_out).toBe(true);
    now = 0;
    expect(((await index.searchSliced(page({ query: wide }))) as SearchResult).timed_out).toBeUndefined();
  });
});
