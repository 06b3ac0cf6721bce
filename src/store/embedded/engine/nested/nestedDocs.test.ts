import { InvertedIndex } from '../invertedIndex';
import { IndexMapping } from '../mapping';
import { nestedObjects } from './nestedDocs';

function mapping(): IndexMapping {
  const m = new IndexMapping();
  m.declareNested('parts', false);
  return m;
}

describe('nestedObjects', () => {
  it('takes an array\'s objects, or a lone object, skipping other values', () => {
    expect(nestedObjects({ parts: [{ a: 1 }, null, 3, { a: 2 }] }, 'parts')).toEqual([{ a: 1 }, { a: 2 }]);
    expect(nestedObjects({ parts: { a: 1 } }, 'parts')).toEqual([{ a: 1 }]);
    expect(nestedObjects({ other: 1 }, 'parts')).toEqual([]);
  });

  it('follows objects and arrays on the way', () => {
    expect(nestedObjects({ a: [{ parts: [{ x: 1 }] }, { parts: { x: 2 } }] }, 'a.parts')).toEqual([{ x: 1 }, { x: 2 }]);
  });

  it('reads own keys only', () => {
    expect(nestedObjects(JSON.parse('{"x": 1}'), '__proto__')).toEqual([]);
  });
});

describe('nested documents of an index', () => {
  it('indexes each object as a document of its own, not in the parent', () => {
    const index = new InvertedIndex();
    const m = mapping();
    index.addSource('p', { title: 'x', parts: [{ name: 'bolt' }, { name: 'nut' }] }, m);
    const nested = index.nested.get('parts')!;
    expect(nested.index.size).toBe(2);
    expect(index.field('parts.name')).toBeUndefined();
    expect(nested.index.field('parts.name')?.docCount).toBe(2);
    expect(index.field('title')).toBeDefined();
    const doc = index.docOf('p')!;
    expect(nested.childrenOf(doc)).toEqual({ first: 0, end: 2 });
    expect([nested.parentOf(1), nested.offsetOf(1)]).toEqual([doc, 1]);
  });

  it('removes a parent\'s children with it, and on a replace', () => {
    const index = new InvertedIndex();
    const m = mapping();
    index.addSource('p', { parts: [{ name: 'bolt' }, { name: 'nut' }] }, m);
    index.addSource('q', { parts: [{ name: 'bolt' }] }, m);
    const nested = index.nested.get('parts')!;
    index.addSource('p', { parts: [{ name: 'screw' }] }, m);
    expect(nested.index.size).toBe(2);
    expect(nested.childrenOf(index.docOf('p')!)).toEqual({ first: 3, end: 4 });
    index.remove('q');
    expect(nested.index.size).toBe(1);
    expect(nested.index.field('parts.name')?.docCount).toBe(1);
  });

  it('indexes the objects in the parent too with include_in_parent', () => {
    const index = new InvertedIndex();
    const m = new IndexMapping();
    m.declareNested('parts', true);
    index.addSource('p', { parts: [{ name: 'bolt' }] }, m);
    expect(index.field('parts.name')).toBeDefined();
    expect(index.nested.get('parts')!.index.size).toBe(1);
  });

  it('maps new fields of nested objects dynamically, under the path', () => {
    const index = new InvertedIndex();
    const m = mapping();
    index.addSource('p', { parts: [{ size: 4 }] }, m);
    expect(m.type('parts.size')).toBe('long');
    expect(index.nested.get('parts')!.index.field('parts.size')).toBeDefined();
  });
});
