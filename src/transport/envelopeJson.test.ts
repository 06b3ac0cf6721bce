import { HITS_JSON, SOURCE_JSON, type Hit, type SearchResult } from '../store/port';
import { hitsJson } from '../store/hitsJson';
import { storedSourceHit } from '../store/embedded/engine/storedSourceHit';
import { envelopeJson } from './envelopeJson';

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
    Object.defineProperty(result, HITS_JSON, { value: hitsJson(hits) });
    const expected = JSON.stringify(envelope({ total: 1, hits: [{ _id: 'a', _score: 1, _source: { n: 1 } }] }));
    expect(envelopeJson(envelope(result))).toBe(expected);
  });

  it('serializes a hit whose source was read (and maybe changed) from the object, not the stale bytes', () => {
    const hit = stored('a', 1, { name: 'before' });
    hit._source.name = 'after';
    expect(hit[SOURCE_JSON]).toBeUndefined();
    expect(envelopeJson(envelope({ hits: [hit], total: 1 }))).toBe(JSON.stringify(envelope({ hits: [{ _id: 'a', _score: 1, _source: { name: 'after' } }], total: 1 })));
  });
});
