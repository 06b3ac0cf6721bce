/**
 * Pages of more than 100 hits are written as JSON text as they are fetched (pageText.ts): the
 * same hits, byte for byte and as objects, as the pages of 100 made as hit objects, with the sources
 * in memory or read back from the spill file, scored or sorted, with or without `_source`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HITS_BYTES, type Hit, type SearchRequest, type SearchResult } from '../../port';
import { SearchIndex } from './searchIndex';

const N = 1200;
const doc = (i: number) => ({ name: `book ${i % 37} ünï ☃ "q" \\ ${'lorem '.repeat(i % 5)}`, rank: (i * 7919) % 101, price: i / 8, tag: `t${i % 7}`, ...(i === 500 ? { odd: -0 } : {}) });

/** The text of a result's hits: its page's bytes, or JSON.stringify of its hit objects. */
const hitsText = (result: SearchResult): string => {
  const bytes = result[HITS_BYTES];
  return bytes === undefined ? JSON.stringify(result.hits) : Buffer.concat(bytes).toString('utf8');
};

describe.each([
  ['in memory', false],
  ['spilled to disk', true],
])('a page of more than 100 hits, sources %s', (_, spill) => {
  let dir: string | undefined;
  let index: SearchIndex;

  beforeAll(() => {
    dir = spill ? mkdtempSync(join(tmpdir(), 'page-text-')) : undefined;
    index = new SearchIndex({ keyword: ['tag'] }, { spillDir: dir });
    for (let i = 0; i < N; i++) index.put(`d${String(i).padStart(4, '0')}`, doc(i));
  });
  afterAll(() => {
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  /** The hits of `request` in pages of 100 (made as hit objects), from `from` to `from + size`. */
  const inSmallPages = (request: SearchRequest): Hit[] => {
    const hits: Hit[] = [];
    for (let at = request.from; at < request.from + request.size; at += 100) {
      const small = index.search({ ...request, from: at, size: Math.min(100, request.from + request.size - at) });
      expect(small[HITS_BYTES]).toBeUndefined();
      hits.push(...small.hits);
    }
    return hits;
  };

  it.each<[string, Partial<SearchRequest>]>([
    ['sorted on three keys', { query: { range: { rank: { gte: 3 } } }, sort: [{ tag: 'desc' }, { rank: 'asc' }, { price: 'desc' }] }],
    ['scored, from 150', { query: { match: { name: 'book 3 lorem' } }, from: 150 }],
    ['without _source, sorted with scores', { query: { match: { name: 'lorem' } }, _source: false, sort: [{ _score: 'desc' }, { price: 'asc' }] }],
    ['every document, the one kept as an object (-0) among them', { query: { match_all: {} }, sort: [{ price: 'asc' }] }],
  ])('%s: the same text and hits as pages of 100', (_name, body) => {
    const request: SearchRequest = { from: 0, size: 900, ...body };
    const big = index.search(request);
    expect(big[HITS_BYTES]).toBeDefined();
    const expected = inSmallPages({ ...request, size: Math.min(request.size, big.total - request.from) });
    expect(hitsText(big)).toBe(JSON.stringify(expected));
    const hits = big.hits;
    expect(big[HITS_BYTES]).toBeUndefined();
    expect(hits).toEqual(expected);
  });

  it("keeps the source of a document that JSON text cannot carry as it is (-0), when the page's hits are read", () => {
    const hits = index.search({ query: { match_all: {} }, sort: [{ price: 'asc' }], from: 0, size: 600 }).hits;
    expect(Object.is(hits[500]._source?.odd, -0)).toBe(true);
  });
});
