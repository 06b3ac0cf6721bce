import { SOURCE_JSON, readOnlySource } from '../../port';
import { storedSourceHit } from './storedSourceHit';

const stored = (id: string, score: number | null, source: unknown) => storedSourceHit(id, score, Buffer.from(JSON.stringify(source)));

describe('storedSourceHit', () => {
  it('reads as a plain hit: keys in order, the source parsed once, assignable', () => {
    const hit = stored('a', 1, { x: [1] });
    expect(Object.keys(hit)).toEqual(['_id', '_score', '_source']);
    expect(hit).toEqual({ _id: 'a', _score: 1, _source: { x: [1] } });
    expect(hit._source).toBe(hit._source);
    expect(hit[SOURCE_JSON]).toBeUndefined(); // read: the object is now the truth
    hit._source = { y: 2 };
    expect(JSON.stringify(hit)).toBe('{"_id":"a","_score":1,"_source":{"y":2}}');
  });

  it('shares one frozen parse between hits of the same cached text, for readers only', () => {
    const shared = { json: Buffer.from('{"name":"x","tags":["a"]}') };
    const one = storedSourceHit('a', 1, shared.json, shared);
    const two = storedSourceHit('a', 1, shared.json, shared);
    expect(readOnlySource(one)).toBe(readOnlySource(two));
    expect(Object.isFrozen(readOnlySource(one).tags)).toBe(true);
    expect(one[SOURCE_JSON]).toBeDefined(); // reading it that way keeps the text for the wire
    two._source!.name = 'mine'; // _source is still a private copy...
    expect(readOnlySource(two)).toEqual({ name: 'mine', tags: ['a'] }); // ...and from then on the truth
    expect(readOnlySource(one)).toEqual({ name: 'x', tags: ['a'] });
    expect(readOnlySource(stored('b', 1, { n: 1 }))).toEqual({ n: 1 }); // not cached: _source
  });
});
