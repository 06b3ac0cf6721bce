import { SOURCE_JSON } from '../../port';
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
});
