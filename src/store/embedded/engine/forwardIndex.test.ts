import { ForwardIndex } from './forwardIndex';

describe('ForwardIndex', () => {
  it('keeps per-document lists, skipped documents empty', () => {
    const f = new ForwardIndex(new Int32Array(2));
    f.begin(1);
    f.push(7);
    f.push(8);
    f.begin(4);
    f.push(9);
    expect(f.list(0)).toEqual([]);
    expect(f.list(1)).toEqual([7, 8]);
    expect(f.list(2)).toEqual([]);
    expect(f.list(4)).toEqual([9]);
    expect(f.count(4)).toBe(1);
    expect(f.list(9)).toEqual([]);
    expect(f.size).toBe(5);
    expect(() => f.begin(3)).toThrow('out of order');
  });

  it('holds doubles too', () => {
    const f = new ForwardIndex(new Float64Array(1));
    f.begin(0);
    f.push(1.5);
    f.push(-2);
    expect(f.list(0)).toEqual([1.5, -2]);
  });

  it('takes entries in bulk', () => {
    const f = new ForwardIndex(new Int32Array(1));
    f.begin(0);
    f.push(1);
    f.begin(2);
    const entries = f.room(3);
    let at = f.length;
    for (const v of [4, 5, 6]) entries[at++] = v;
    f.commit(at);
    expect(f.list(0)).toEqual([1]);
    expect(f.list(2)).toEqual([4, 5, 6]);
  });

  it('counts the entries of a run of documents, and those without any', () => {
    const f = new ForwardIndex(new Int32Array(2));
    f.begin(0);
    f.push(1);
    f.push(2);
    f.begin(2); // document 1 skipped: no entries
    f.push(1);
    f.begin(3);
    const counts = new Int32Array(3);
    // documents 1 and 3 have no entry, 7 is past the last document begun
    expect(f.countEntries(Int32Array.of(0, 1, 2, 3, 7), 0, 5, counts)).toBe(3);
    expect([...counts]).toEqual([0, 2, 1]);
    expect(f.countEntries(Int32Array.of(0, 1, 2, 3, 7), 2, 3, counts)).toBe(0);
    expect([...counts]).toEqual([0, 3, 1]);
  });

  it('one entry a document from the first: the same lists without starts, until a document has none, two, or is skipped', () => {
    const lists = (f: ForwardIndex, n: number) => Array.from({ length: n }, (_, d) => f.list(d));
    for (const breaker of ['none', 'two', 'bulk', 'skipped'] as const) {
      const f = new ForwardIndex(new Int32Array(0));
      for (let d = 0; d < 40; d++) {
        f.begin(d);
        f.push(d % 3);
      }
      expect(f.bytes()).toBe(f.entries.byteLength); // (no starts)
      const counts = new Int32Array(3);
      expect(f.countEntries(Int32Array.of(0, 1, 2, 39, 40), 0, 5, counts)).toBe(1);
      expect([...counts]).toEqual([2, 1, 1]);
      if (breaker === 'none') f.begin(40);
      else if (breaker === 'two') {
        f.begin(40);
        f.push(5);
        f.push(6);
      } else if (breaker === 'bulk') {
        f.begin(40);
        const entries = f.room(2);
        entries[f.length] = 5;
        entries[f.length + 1] = 6;
        f.commit(f.length + 2);
      } else f.begin(41);
      f.begin(42);
      f.push(7);
      const expected = [...Array.from({ length: 40 }, (_, d) => [d % 3]), breaker === 'two' || breaker === 'bulk' ? [5, 6] : [], [], [7]];
      expect(lists(f, 43)).toEqual(expected);
      expect(f.count(40)).toBe(expected[40].length);
      expect(f.bytes()).toBeGreaterThan(f.entries.byteLength);
    }
  });
});
