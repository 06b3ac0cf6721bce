import { storedSourceHit } from './embedded/engine/storedSourceHit';
import { hitsJson } from './hitsJson';
import type { Hit } from './port';

const stored = (id: string, score: number | null, source: unknown) => storedSourceHit(id, score, Buffer.from(JSON.stringify(source)));

describe('hitsJson', () => {
  it('writes what JSON.stringify writes, ids that need escaping and sort values included', () => {
    const hits = [stored('plain-id_1', 2.5, { a: 'ü' }), stored('quote"\\id', null, { b: [1, null] })];
    hits[1].sort = ['x', 1];
    expect(hitsJson(hits)).toBe(JSON.stringify([{ _id: 'plain-id_1', _score: 2.5, _source: { a: 'ü' } }, { _id: 'quote"\\id', _score: null, _source: { b: [1, null] }, sort: ['x', 1] }]));
  });

  it('writes highlights after the stored source and before sort values', () => {
    const hits = [stored('a', 1, { n: 1 }), stored('b', null, { n: 2 })];
    hits[0].highlight = { name: ['<em>x</em> "y"'] };
    hits[1].highlight = { 'a.b': ['z'] };
    hits[1].sort = ['k'];
    expect(hitsJson(hits)).toBe(JSON.stringify([{ _id: 'a', _score: 1, _source: { n: 1 }, highlight: { name: ['<em>x</em> "y"'] } }, { _id: 'b', _score: null, _source: { n: 2 }, highlight: { 'a.b': ['z'] }, sort: ['k'] }]));
  });

  it('serializes extra keys around the stored source, and plain hits beside stored ones', () => {
    const hit = stored('a', 1, { n: 1 }) as Hit & { extra?: unknown };
    hit.extra = { k: [1] };
    const plain = { _id: 'p', _score: 0.5, _source: { m: 2 } };
    expect(hitsJson([plain, hit, null as unknown as Hit])).toBe(JSON.stringify([plain, { _id: 'a', _score: 1, _source: { n: 1 }, extra: { k: [1] } }, null]));
  });
});
