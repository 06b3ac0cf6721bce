import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SpillTarget } from './persist/diskFile';
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

  it('keeps the JSON text it is given (JSON.stringify of the source) when it reads back exactly, else serializes the source', () => {
    const store = new SourceStore();
    const source = { name: 'Åland "x" \\ 😀', __proto__x: { constructor: 1 }, n: [1, 2.5, null, true] };
    store.put(0, source, JSON.stringify(source));
    expect(store.json(0)?.toString('utf8')).toBe(JSON.stringify(source));
    expect(store.get(0)).toStrictEqual(source);
    // -0, undefined: JSON.stringify would lose them: the text is not taken
    const zero = { zero: -0, gone: undefined, list: [1] };
    store.put(1, zero, JSON.stringify(zero));
    expect(Object.is(store.get(1).zero, -0)).toBe(true);
    expect(Object.keys(store.get(1))).toEqual(['zero', 'gone', 'list']);
    // a text larger than what is left of a chunk goes to the next one
    const big = { text: 'é'.repeat(3000) };
    for (let i = 2; i < 10; i++) store.put(i, big, JSON.stringify(big));
    for (let i = 2; i < 10; i++) expect(store.get(i)).toEqual(big);
    expect(store.get(0)).toStrictEqual(source);
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

  it('with a spill directory, keeps only the chunk being filled in memory: full ones are read back from a file without a name', () => {
    const dir = mkdtempSync(join(tmpdir(), 'spill-'));
    try {
      const store = new SourceStore(new SpillTarget(dir));
      const inMemory = new SourceStore();
      const big = 'y'.repeat(5 * 1024 * 1024);
      const source = (i: number) => ({ i, text: i === 20_000 ? big : `doc ${i} é😀 ${'z'.repeat(i % 300)}` });
      for (let i = 0; i < 40_000; i++) {
        store.put(i, source(i));
        inMemory.put(i, source(i));
      }
      store.put(40_000, { zero: -0 });
      for (const i of [0, 1, 4095, 19_999, 20_000, 20_001, 39_999]) {
        expect(store.get(i)).toEqual(source(i));
        expect(store.json(i)?.equals(inMemory.json(i) as Buffer)).toBe(true);
      }
      expect(Object.is(store.get(40_000).zero, -0)).toBe(true);
      expect(inMemory.bytes()).toBeGreaterThan(big.length + 8 * 1024 * 1024);
      // the chunk being filled (the large document's 8 MB buffer, used again) and where each source is
      expect(store.bytes()).toBeLessThan(8 * 1024 * 1024 + 1024 * 1024);
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
