import fc from 'fast-check';
import { HITS_JSON, SOURCE_JSON, SOURCE_TEXT, type Hit, type SearchResult } from '../store/port';
import { SharedJsonText, hitsJson } from '../store/hitsJson';
import { storedSourceHit } from '../store/embedded/engine/storedSourceHit';
import { setDefaultSliceMs } from '../scheduler/scheduler';
import { SLICED_PAGE_HITS, envelopeInSlices, envelopeJson, envelopeParts } from './envelopeJson';

const stored = (id: string, score: number | null, source: unknown) => storedSourceHit(id, score, Buffer.from(JSON.stringify(source)));

const envelope = (result: unknown) => ({ requestId: 'r1', status: 200, error: null, controller: 'document', action: 'search', collection: 'things', index: 'entity', volatile: null, result });

describe('envelopeJson', () => {
  it('is JSON.stringify for an envelope without stored sources', () => {
    const plain = envelope({ hits: [{ _id: 'a', _score: 1, _source: { n: 1 } }], total: 1 });
    expect(envelopeJson(plain)).toBe(JSON.stringify(plain));
    const error = { ...envelope(null), status: 404, error: { id: 'x', message: 'm' } };
    expect(envelopeJson(error)).toBe(JSON.stringify(error));
  });

  it('copies stored source bytes in, giving the text JSON.stringify would give of the parsed hits', () => {
    const sources = [{ name: 'ünïcode ☃ 😀', nested: { list: [1, 2.5, null, true] } }, { name: 'b', quote: '"\\' }];
    const hits: Hit[] = [stored('a', 2.5, sources[0]), stored('b', null, sources[1])];
    hits[1].sort = ['b', 3];
    const env = { ...envelope({ hits, total: 7 }), room: 'r1' };
    const out = envelopeJson(env);
    expect(hits.every((h) => h[SOURCE_JSON] !== undefined)).toBe(true); // serializing did not parse the sources
    const expected = JSON.stringify({ ...envelope({ hits: [{ _id: 'a', _score: 2.5, _source: sources[0] }, { _id: 'b', _score: null, _source: sources[1], sort: ['b', 3] }], total: 7 }), room: 'r1' });
    expect(out).toBe(expected);
  });

  it('copies in the page text of a cached result without building its hits', () => {
    const hits = [stored('a', 1, { n: 1 })];
    const result = { total: 1 } as SearchResult;
    Object.defineProperty(result, 'hits', { enumerable: true, get: () => { throw new Error('hits read'); } });
    const page = new SharedJsonText(hitsJson(hits));
    Object.defineProperty(result, HITS_JSON, { value: page });
    const expected = JSON.stringify(envelope({ total: 1, hits: [{ _id: 'a', _score: 1, _source: { n: 1 } }] }));
    expect(envelopeJson(envelope(result))).toBe(expected);
    // in parts: the shared page itself between the text before and after it
    const parts = envelopeParts(envelope(result));
    expect(parts.hits).toBe(page);
    expect(parts.head + page.text + parts.tail).toBe(expected);
  });

  it('writes every other member exactly as JSON.stringify does, in order, whatever the values', () => {
    const hits = [stored('a', 1, { n: 1 })];
    const oddStrings = ['plain', 'quote " and \\ backslash', 'control \u0001\n\t', 'lone \ud800 surrogate', 'pair 😀 ünï', ''];
    for (const odd of oddStrings) {
      const when = new Date(0);
      const env = {
        requestId: odd,
        status: 200,
        error: null,
        controller: 'document',
        skipped: undefined,
        fn: () => 1,
        [odd]: odd,
        nan: NaN,
        inf: -Infinity,
        yes: true,
        no: false,
        when,
        volatile: { nested: [odd, 1.5, null, { when }] },
        result: { before: odd, gone: undefined, hits, total: 3, after: { odd }, last: -0 },
        trailing: 'x',
      };
      const result = { ...env.result, hits: [{ _id: 'a', _score: 1, _source: { n: 1 } }] };
      expect(envelopeJson(env)).toBe(JSON.stringify({ ...env, result }));
      expect(envelopeJson({ result: { hits } })).toBe(JSON.stringify({ result: { hits: result.hits } }));
    }
  });

  /** A bulk write's created entity as document:mCreate answers it, with its source's text (SOURCE_TEXT). */
  const written = (_id: string, source: unknown, status = 201) => ({ _id, _source: source, status, [SOURCE_TEXT]: JSON.stringify(source) });

  it("copies in the _source text of each entity a bulk write created: the text JSON.stringify gives", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.string({ unit: 'binary' }), fc.dictionary(fc.string({ unit: 'binary' }), fc.jsonValue()), fc.constantFrom(200, 201)), { minLength: 1, maxLength: 8 }), (items) => {
        const successes = items.map(([id, source, status]) => written(id, source, status));
        const env = { ...envelope({ successes, errors: [{ document: { body: { a: 1 } }, status: 400, reason: { id: 'x' } }] }), action: 'mCreate' };
        const parts = envelopeParts(env);
        expect(parts.hits).not.toBeNull();
        expect(envelopeJson(env)).toBe(JSON.stringify(env));
      }),
      { seed: 17, numRuns: 300 },
    );
  });

  it('writes an entity without its text, or of another shape, as JSON.stringify does', () => {
    const [a, b, c] = [written('a', { n: 1 }), written('b', { n: 2 }), written('c', { n: 3 })];
    delete (b as Partial<typeof b>)[SOURCE_TEXT];
    const successes = [a, b, { ...c, extra: true }, { status: 201, _id: 'd', _source: { n: 4 }, [SOURCE_TEXT]: '{"n":4}' }, { _id: 'e', _source: { n: 5 }, status: '201', [SOURCE_TEXT]: '{"n":5}' }];
    const env = envelope({ successes, errors: [] });
    expect(envelopeJson(env)).toBe(JSON.stringify(env));
    // no text on the first: the whole JSON at once
    expect(envelopeParts(envelope({ successes: [b, a], errors: [] })).hits).toBeNull();
    expect(envelopeJson(envelope({ successes: [], errors: [] }))).toBe(JSON.stringify(envelope({ successes: [], errors: [] })));
  });

  it('gives a shared page its UTF-8 bytes, encoded once', () => {
    const page = new SharedJsonText('["ünïcode ☃ 😀"]');
    expect(page.utf8.toString('utf8')).toBe(page.text);
    expect(page.utf8).toBe(page.utf8);
    expect(page.utf8.buffer.byteLength).toBe(page.utf8.length); // its own memory, not a slice of Node's pool
  });

  it('in parts: no hit text means the whole JSON as head', () => {
    const plain = envelope({ hits: [], total: 0 });
    expect(envelopeParts(plain)).toEqual({ head: JSON.stringify(plain), hits: null, tail: '' });
  });

  it('serializes a hit whose source was read (and maybe changed) from the object, not the stale bytes', () => {
    const hit = stored('a', 1, { name: 'before' });
    hit._source!.name = 'after';
    expect(hit[SOURCE_JSON]).toBeUndefined();
    expect(envelopeJson(envelope({ hits: [hit], total: 1 }))).toBe(JSON.stringify(envelope({ hits: [{ _id: 'a', _score: 1, _source: { name: 'after' } }], total: 1 })));
  });

  describe('a page of more than SLICED_PAGE_HITS hits', () => {
    // slices of 0 ms: the page pauses at every look at the clock
    beforeEach(() => setDefaultSliceMs(0));
    afterEach(() => setDefaultSliceMs(1));

    const inSlices = (env: object) =>
      new Promise<Buffer[] | null>((resolve) => {
        expect(envelopeInSlices(env, resolve)).toBe(true);
      });

    it('is made into bytes in slices, other callbacks running between them: the text JSON.stringify gives', async () => {
      const n = SLICED_PAGE_HITS * 20 + 7;
      const sources = Array.from({ length: n }, (_, i) => ({ name: `ünï ${i} ☃ 😀`, rank: i, quote: '"\\' }));
      const hits: Hit[] = sources.map((s, i) => stored(`id${i}`, i % 3 === 0 ? null : i / 7, s));
      hits[5].sort = ['x', 5];
      hits[6].highlight = { name: ['<em>ünï</em>'] };
      void hits[9]._source; // read: no stored text left, written as an object
      const env = { ...envelope({ hits, total: n + 1 }), room: 'r9' };
      let turns = 0;
      const count = () => {
        turns++;
        if (!done) setImmediate(count);
      };
      let done = false;
      setImmediate(count);
      const chunks = await inSlices(env);
      done = true;
      expect(turns).toBeGreaterThan(10);
      expect(chunks!.length).toBeGreaterThan(10);
      const plain = { ...envelope({ hits: hits.map((h, i) => ({ _id: h._id, _score: h._score, _source: sources[i], ...(h.highlight ? { highlight: h.highlight } : {}), ...(h.sort ? { sort: h.sort } : {}) })), total: n + 1 }), room: 'r9' };
      expect(Buffer.concat(chunks!).toString('utf8')).toBe(JSON.stringify(plain));
    });

    it('is made in slices when its hits are plain objects too (a filtered _source), byte for byte JSON.stringify', async () => {
      const hits = Array.from({ length: SLICED_PAGE_HITS * 3 }, (_, i) => ({ _id: `p${i}`, _score: i === 4 ? null : 1 / (i + 1), _source: { i, text: 'é\u2028' }, sort: [i] }));
      const env = envelope({ hits, total: hits.length, timed_out: true });
      const chunks = await inSlices(env);
      expect(chunks!.length).toBeGreaterThan(2);
      expect(Buffer.concat(chunks!).toString('utf8')).toBe(JSON.stringify(env));
    });
  });

  it('leaves small pages, cached pages and envelopes without hits to be written at once', () => {
    const done = jest.fn();
    const small = Array.from({ length: SLICED_PAGE_HITS }, (_, i) => stored(`s${i}`, 1, { i }));
    expect(envelopeInSlices(envelope({ hits: small, total: SLICED_PAGE_HITS }), done)).toBe(false);
    const cached = { total: 1, hits: [] } as unknown as SearchResult;
    Object.defineProperty(cached, HITS_JSON, { value: new SharedJsonText('[]') });
    expect(envelopeInSlices(envelope(cached), done)).toBe(false);
    expect(envelopeInSlices(envelope(null), done)).toBe(false);
    expect(envelopeInSlices({ ...envelope(null), error: { id: 'x' } }, done)).toBe(false);
    expect(done).not.toHaveBeenCalled();
  });
});
