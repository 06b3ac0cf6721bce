import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Doc, SearchRequest } from '../../../port';
import { EMPTY_MAPPING, mergeTypeMapping, parseTypeMapping } from '../../../mapping/typeMapping';
import { COMPACTION, SearchIndex } from '../searchIndex';
import { FORMAT_VERSION, IndexFileError, WriteAborted, readIndexFile, readIndexHeader, writeIndexFile, writeIndexFileSync } from './file';
import { StateWriter, joinedPieces, sectionBytes } from './state';

const ENTITY = { keyword: ['id', 'entityType', 'slug', 'allowTenantIds'], date: ['modified'] };
const WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliett', '東京都', '日本語', 'Ærø', 'naïve', '👍🏽'];

/** A corpus that reaches every structure: long and short posting lists, not yet inverted documents, tombstones, objects, numbers, dates, booleans, arrays, non-Latin-1 terms, a source JSON text cannot carry (-0). */
function corpus(n: number, seed = 1): { id: string; source: Doc }[] {
  let x = seed;
  const rand = () => ((x = (Math.imul(x, 1103515245) + 12345) >>> 0) / 2 ** 32);
  const pick = () => WORDS[Math.floor(rand() * rand() * WORDS.length)];
  const out: { id: string; source: Doc }[] = [];
  for (let i = 0; i < n; i++) {
    const source: Doc = {
      id: `e${i}`,
      slug: `slug-${i}`,
      allowTenantIds: i % 7 === 0 ? ['t1', 't2'] : ['*'],
      name: `${pick()} ${pick()} ${pick()}`,
      description: Array.from({ length: 1 + Math.floor(rand() * 15) }, pick).join(' '),
      code: `C${Math.floor(rand() * 500)}`,
      rank: Math.floor(rand() * 1000),
      price: i % 5 === 0 ? [1.5, 2.25 * (i % 11)] : rand() * 100,
      modified: new Date(Date.UTC(2024, 0, 1) + i * 3_600_000).toISOString(),
      active: i % 3 === 0,
      place: { lat: -40 + (i % 80), lon: -170 + (i % 340) },
      owner: { team: `team${i % 13}`, level: i % 4 },
      summary: `the ${pick()} runners were running to the ${pick()} stations`,
      tag: i % 2 === 0 ? 'Blue' : 'GREEN',
      weight: (i % 97) / 7,
      parts: Array.from({ length: i % 4 }, (_, p) => ({ name: `${pick()} ${pick()}`, n: (i + p) % 10, screws: Array.from({ length: (i + p) % 3 }, (_, s) => ({ size: s + p })) })),
    };
    if (i === 3) source.zero = -0;
    out.push({ id: `e${i}`, source });
  }
  return out;
}

const MAPPING = mergeTypeMapping(
  EMPTY_MAPPING,
  parseTypeMapping({
    properties: {
      place: { type: 'geo_point' },
      released: { type: 'date', format: 'dd/MM/yyyy' },
      code: { type: 'keyword', copy_to: 'everything', fields: { text: { type: 'text' } } },
      everything: { type: 'text' },
      summary: { type: 'text', analyzer: 'english' },
      tag: { type: 'keyword', normalizer: 'lowercase' },
      weight: { type: 'scaled_float', scaling_factor: 100 },
      parts: { type: 'nested', properties: { name: { type: 'text' }, n: { type: 'integer' }, screws: { type: 'nested', properties: { size: { type: 'long' } } } } },
    },
  }),
);

function build(n: number, spillDir?: string): SearchIndex {
  const index = new SearchIndex(ENTITY, { spillDir });
  index.declareMapping(MAPPING);
  const docs = corpus(n);
  docs.forEach(({ id, source }, i) => index.put(id, i % 50 === 0 ? { ...source, released: `0${1 + (i % 9)}/02/2021` } : source));
  for (let i = 0; i < n; i += 9) index.remove(`e${i}`);
  for (let i = 1; i < n; i += 17) index.put(`e${i}`, { ...docs[i].source, name: 'replaced golf golf' });
  return index;
}

const page = (request: Partial<SearchRequest>): SearchRequest => ({ from: 0, size: 50, ...request });

/** Searches over every kind of structure: text scoring, phrases, keyword and numeric terms and ranges, prefixes, sorts, aggregations, geo, highlighting, nested objects. */
const REQUESTS: SearchRequest[] = [
  page({ query: { match: { name: 'alpha golf' } } }),
  page({ query: { match: { description: '東京都 naïve' } }, size: 100 }),
  page({ query: { match_phrase: { description: 'alpha bravo' } } }),
  page({ query: { bool: { must: [{ match: { description: 'echo' } }], filter: [{ range: { rank: { gte: 100, lt: 600 } } }] } }, sort: [{ rank: 'desc' }, { id: 'asc' }] }),
  page({ query: { prefix: { 'name.keyword': 'alpha b' } } }),
  page({ query: { wildcard: { code: 'C1*' } }, sort: [{ code: 'asc' }, { modified: 'desc' }] }),
  page({ query: { terms: { allowTenantIds: ['t1'] } }, sort: [{ price: { order: 'asc', mode: 'max' } }] }),
  page({ query: { range: { modified: { gte: '2024-01-02', lte: '2024-01-20' } } }, aggs: { byTeam: { terms: { field: 'owner.team.keyword' }, aggs: { avgRank: { avg: { field: 'rank' } } } }, hist: { histogram: { field: 'rank', interval: 100 } } } }),
  page({ query: { match: { everything: 'c12' } } }),
  page({ query: { match: { 'code.text': 'c12' } } }),
  page({ query: { range: { released: { gte: '2021-02-02' } } } }),
  page({ query: { geo_distance: { distance: '800km', place: { lat: 10, lon: 10 } } }, sort: [{ _geo_distance: { place: { lat: 0, lon: 0 }, order: 'asc' } }] }),
  page({ query: { term: { active: true } }, aggs: { ranks: { stats: { field: 'rank' } }, card: { cardinality: { field: 'code' } } } }),
  page({ query: { multi_match: { query: 'golf delta', fields: ['name^2', 'description'] } }, highlight: { fields: { name: {} } } }),
  page({ query: { exists: { field: 'zero' } } }),
  page({ query: { query_string: { query: 'name:(alpha OR hotel) AND rank:[10 TO 500]' } }, track_total_hits: true }),
  page({ query: { fuzzy: { name: { value: 'alpah' } } } }),
  page({ query: { match: { summary: 'running stations alpha' } } }),
  page({ query: { term: { tag: 'blue' } }, aggs: { tags: { terms: { field: 'tag' } }, weights: { stats: { field: 'weight' } } } }),
  page({ query: { range: { weight: { gte: 3.14, lt: 9 } } }, sort: [{ weight: 'desc' }, { id: 'asc' }] }),
  page({ query: { nested: { path: 'parts.screws', query: { term: { 'parts.screws.size': 2 } } } } }),
  page({ query: { nested: { path: 'parts', score_mode: 'max', query: { bool: { must: [{ match: { 'parts.name': 'alpha golf' } }, { range: { 'parts.n': { gte: 4 } } }] } }, inner_hits: { size: 2 } } } }),
];

function answers(index: SearchIndex): unknown[] {
  return REQUESTS.map((request) => {
    try {
      return index.search(request);
    } catch (err) {
      return { error: String(err) };
    }
  });
}

function roundTrip(index: SearchIndex, path: string, spillDir?: string): SearchIndex {
  const w = new StateWriter();
  index.writeState(w);
  writeIndexFileSync(path, { test: true }, w);
  const { header, state } = readIndexFile<{ test: boolean }>(path);
  expect(header).toEqual({ test: true });
  const restored = SearchIndex.readState(state, { spillDir });
  state.end();
  return restored;
}

describe('index file: a SearchIndex written and read back', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'index-file-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it.each([
    ['sources in memory', false],
    ['sources spilled to disk', true],
  ])('answers every search exactly as the index it was written from (hits, order, scores, aggregations), and takes the same writes after (%s)', (_, spill) => {
    const spillDir = spill ? dir : undefined;
    const index = build(6000, spillDir);
    index.search(page({ query: { prefix: { name: 'al' } } })); // a sorted term view exists for some fields
    const before = answers(index);
    const restored = roundTrip(index, join(dir, 'index'), spillDir);
    rmSync(join(dir, 'index')); // (its sources are read from it: the process keeps it open)
    expect(readdirSync(dir)).toEqual([]); // (spill files have no name)
    expect(answers(restored)).toEqual(before);
    const nested = before[before.length - 1] as { total: number; hits: { inner_hits?: Record<string, { hits: { hits: unknown[] } }> }[] };
    expect(nested.total).toBeGreaterThan(100); // the nested objects' index was written and read back
    expect(nested.hits[0].inner_hits?.parts.hits.hits.length).toBeGreaterThan(0);
    expect((before[before.length - 2] as { total: number }).total).toBeGreaterThan(100); // and the nested field's inside it
    expect(restored.size).toBe(index.size);
    expect(restored.get('e3')).toEqual(index.get('e3'));
    expect(Object.is(restored.get('e3')?.zero, -0)).toBe(true);
    expect(restored.mappedType('place')).toBe(index.mappedType('place'));

    // the same writes on both: new documents, new terms and values, replaces, removes, a new field
    const more = corpus(700, 7).map(({ id, source }) => ({ id: `n${id}`, source: { ...source, extra: `x ${id}`, rank: 5000 + Number(id.slice(1)) } }));
    for (const target of [index, restored]) {
      for (const { id, source } of more) target.put(id, source);
      for (let i = 2; i < 6000; i += 11) target.remove(`e${i}`);
      target.put('e5', { name: 'fresh 日本語', rank: -1 });
    }
    expect(answers(restored)).toEqual(answers(index));
    expect(restored.search(page({ query: { match: { extra: 'x' } }, sort: [{ rank: 'desc' }] }))).toEqual(index.search(page({ query: { match: { extra: 'x' } }, sort: [{ rank: 'desc' }] })));
  });

  it('keeps the tombstones and compacts as the original does', () => {
    const saved = COMPACTION.minDead;
    COMPACTION.minDead = 10;
    try {
      const index = build(300);
      const restored = roundTrip(index, join(dir, 'index'));
      for (const target of [index, restored]) for (let i = 0; i < 300; i += 2) target.remove(`e${i}`);
      expect(answers(restored)).toEqual(answers(index));
    } finally {
      COMPACTION.minDead = saved;
    }
  });

  it('an empty index', () => {
    const index = new SearchIndex(ENTITY);
    const restored = roundTrip(index, join(dir, 'index'));
    expect(answers(restored)).toEqual(answers(index));
    restored.put('a', { name: 'alpha' });
    expect(restored.count({ match: { name: 'alpha' } })).toBe(1);
  });

  it('the asynchronous writer writes the same file, and gives up (leaving no file) when a check fails', async () => {
    const index = build(500);
    const w = new StateWriter();
    index.writeState(w);
    await writeIndexFile(join(dir, 'async'), { n: 1 }, w);
    writeIndexFileSync(join(dir, 'sync'), { n: 1 }, w);
    expect(readFileSync(join(dir, 'async')).equals(readFileSync(join(dir, 'sync')))).toBe(true);
    const changes = index.changes;
    const check = () => index.changes === changes;
    index.put('late', { name: 'late' });
    await expect(writeIndexFile(join(dir, 'aborted'), { n: 1 }, w, check)).rejects.toBeInstanceOf(WriteAborted);
    expect(readIndexHeader(join(dir, 'aborted'))).toBeNull();
    expect(readdirSync(dir).sort()).toEqual(['async', 'sync']);
  });
});

describe('index file: sections made in pieces', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'pieces-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('joinedPieces: the lists end to end, small ones gathered into pieces, large ones as they are', () => {
    const lists = [Int32Array.from([1, 2, 3, 9]), new Int32Array(10).fill(7), Int32Array.from([4]), new Int32Array(0), Int32Array.from([5, 6])];
    const lengths = [3, 10, 1, 0, 2];
    const pieces: Uint8Array[] = [];
    const buffers: ArrayBufferLike[] = [];
    // (each piece copied before the next is asked for: a gathered piece's buffer is used again)
    for (const piece of joinedPieces(lists, lengths, 16)) {
      pieces.push(Uint8Array.from(piece));
      buffers.push(piece.buffer);
    }
    // 12 bytes gathered; 40 bytes (>= 16) as a view; then 4 + 8 bytes gathered, in the same buffer
    expect(pieces.map((p) => p.length)).toEqual([12, 40, 12]);
    expect(buffers[1]).toBe(lists[1].buffer);
    expect(buffers[2]).toBe(buffers[0]);
    const all = new Int32Array(Uint8Array.from(Buffer.concat(pieces)).buffer);
    expect(Array.from(all)).toEqual([1, 2, 3, ...new Array(10).fill(7), 4, 5, 6]);
  });

  it('a section written in pieces reads back as the one section (both writers), its checksum over every piece', async () => {
    const big = new Uint8Array(3 * 1024 * 1024 + 17).map((_, i) => (i * 31) % 251);
    const pieces = () => [big.subarray(0, 5), big.subarray(5, 2_500_000), big.subarray(2_500_000)];
    const w = new StateWriter();
    w.json('before');
    w.bytes(pieces);
    w.bytes(big.subarray(0, 100));
    expect(sectionBytes(w.sections[0]).equals(Buffer.from(big))).toBe(true);
    await writeIndexFile(join(dir, 'async'), { n: 2 }, w);
    writeIndexFileSync(join(dir, 'sync'), { n: 2 }, w);
    expect(readFileSync(join(dir, 'async')).equals(readFileSync(join(dir, 'sync')))).toBe(true);
    const { header, state } = readIndexFile<{ n: number }>(join(dir, 'async'));
    expect(header).toEqual({ n: 2 });
    expect(state.json<string>()).toBe('before');
    expect(state.bytes().equals(Buffer.from(big))).toBe(true);
    expect(state.bytes().equals(Buffer.from(big.subarray(0, 100)))).toBe(true);
    // a byte of the pieced section changed on disk: its checksum fails
    const bytes = readFileSync(join(dir, 'async'));
    bytes[2_600_000] ^= 1;
    writeFileSync(join(dir, 'async'), bytes);
    expect(() => readIndexFile(join(dir, 'async'))).toThrow(IndexFileError);
  });
});

describe('index file: never trusted when damaged or of another version', () => {
  let dir: string;
  let path: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'index-file-'));
    path = join(dir, 'index');
    const w = new StateWriter();
    build(300).writeState(w);
    writeIndexFileSync(path, { seq: 42 }, w);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const copyWith = (change: (bytes: Buffer) => Buffer): string => {
    const target = join(dir, `changed-${Math.random()}`);
    writeFileSync(target, change(Buffer.from(readFileSync(path))));
    return target;
  };

  it('a byte flipped anywhere: the section, footer or trailer fails its checksum', () => {
    const size = readFileSync(path).length;
    for (const at of [20, Math.floor(size / 3), Math.floor(size / 2), size - 40, size - 3]) {
      const damaged = copyWith((b) => {
        b[at] ^= 0x10;
        return b;
      });
      expect(() => readIndexFile(damaged)).toThrow(IndexFileError);
    }
  });

  it('another format version, a truncated file, another kind of file', () => {
    const older = copyWith((b) => {
      b.writeUInt32LE(FORMAT_VERSION - 1, 8);
      return b;
    });
    expect(() => readIndexFile(older)).toThrow(`written in format version ${FORMAT_VERSION - 1}, this gateway reads version ${FORMAT_VERSION}`);
    expect(() => readIndexFile(copyWith((b) => b.subarray(0, b.length - 100)))).toThrow(IndexFileError);
    expect(() => readIndexFile(copyWith(() => Buffer.from('{"not": "an index"}'.repeat(3))))).toThrow('not an index file');
    expect(readIndexHeader(path)).toEqual({ seq: 42 });
  });
});
