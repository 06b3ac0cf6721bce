import { SourceStore } from './sourceStore';

describe('SourceStore', () => {
  it('gives back fresh copies of what was stored', () => {
    const store = new SourceStore();
    const source = { name: 'France', tags: ['a', 'b'], n: 1.5, nested: { ok: true, none: null } };
    store.put(0, source);
    source.name = 'changed';
    const copy = store.get(0);
    expect(copy).toEqual({ name: 'France', tags: ['a', 'b'], n: 1.5, nested: { ok: true, none: null } });
    (copy.tags as string[]).push('c');
    expect(store.get(0).tags).toEqual(['a', 'b']);
  });

  it('gives the stored JSON text itself, and nothing for sources kept as objects', () => {
    const store = new SourceStore();
    store.put(0, { name: 'Åland', n: [1, 2] });
    store.put(1, { zero: -0 });
    expect(store.json(0)?.toString('utf8')).toBe('{"name":"Åland","n":[1,2]}');
    expect(store.json(1)).toBeUndefined();
  });

  it('keeps what JSON cannot carry as objects', () => {
    const store = new SourceStore();
    store.put(3, { zero: -0, list: [1] });
    expect(Object.is(store.get(3).zero, -0)).toBe(true);
    let deep: Record<string, unknown> = { leaf: 1 };
    for (let i = 0; i < 1000; i++) deep = { d: deep };
    store.put(4, deep);
    expect(JSON.stringify(store.get(4)).length).toBeGreaterThan(4000);
  });

  it('spreads many documents over chunks, large ones included', () => {
    const store = new SourceStore();
    const big = 'x'.repeat(5 * 1024 * 1024);
    for (let i = 0; i < 2000; i++) store.put(i, { i, text: i === 1500 ? big : `doc ${i} é😀` });
    for (const i of [0, 999, 1499, 1500, 1501, 1999]) expect(store.get(i)).toEqual({ i, text: i === 1500 ? big : `doc ${i} é😀` });
    expect(store.bytes()).toBeGreaterThan(big.length);
  });
});
