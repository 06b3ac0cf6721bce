import { InvertedIndex } from './invertedIndex';
import { IndexMapping } from './mapping';

describe('InvertedIndex', () => {
  it('numbers documents in index order and moves a replaced document to the end', () => {
    const mapping = new IndexMapping();
    const index = new InvertedIndex();
    const add = (id: string, doc: Record<string, unknown>) => index.addSource(id, doc, mapping);
    expect(add('a', { name: 'x' })).toBe(0);
    expect(add('b', { name: 'y' })).toBe(1);
    expect(add('a', { name: 'z' })).toBe(2);
    expect([...index.docs.values()].map((r) => r.id)).toEqual(['b', 'a']);
    expect(index.field('name')?.postings('x')).toBeUndefined();
    expect(index.field('name')?.docCount).toBe(2);
    expect(index.size).toBe(2);
  });

  it('removes documents from every field', () => {
    const mapping = new IndexMapping();
    const index = new InvertedIndex();
    const doc = { name: 'x', n: 1 };
    index.addSource('a', doc, mapping);
    expect(index.remove('a')).toBe(true);
    expect(index.remove('a')).toBe(false);
    expect(index.field('n')?.present.size).toBe(0);
    expect(index.field('name.keyword')?.docCount).toBe(0);
    expect(index.size).toBe(0);
  });
});
