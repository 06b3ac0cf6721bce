import { ForwardIndex, TermIds } from './forwardIndex';
import { StateReader, StateWriter, sectionBytes } from './persist/state';

const GAP_LIKE = -1;

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

  it('keeps term ids one byte wide below 128, two below 32,768, four beyond; widening keeps every list', () => {
    const f = new ForwardIndex<TermIds>(new Int8Array(0));
    f.begin(0);
    f.push(3);
    f.push(GAP_LIKE);
    f.push(127);
    expect(f.entries).toBeInstanceOf(Int8Array);
    f.begin(1);
    f.push(128);
    expect(f.entries).toBeInstanceOf(Int16Array);
    f.begin(2);
    f.fit(32_768); // (a writer through room: the largest id it may write)
    expect(f.entries).toBeInstanceOf(Int32Array);
    const entries = f.room(2);
    entries[f.length] = 1_000_000;
    entries[f.length + 1] = -2;
    f.commit(f.length + 2);
    expect([f.list(0), f.list(1), f.list(2)]).toEqual([[3, -1, 127], [128], [1_000_000, -2]]);
  });

  it('one byte a document for a field of few distinct values (the one-entry form)', () => {
    const f = new ForwardIndex<TermIds>(new Int8Array(0));
    for (let d = 0; d < 1000; d++) {
      f.begin(d);
      f.push(d % 2);
    }
    expect(f.entries).toBeInstanceOf(Int8Array);
    expect(f.bytes()).toBeLessThanOrEqual(1024);
    expect(f.list(999)).toEqual([1]);
  });

  it('keeps no entries of its own while document d has term d, one each (ids of a bulk load), the same lists before and after an index file and once the rule breaks', () => {
    const roundTrip = (f: ForwardIndex<TermIds>): ForwardIndex<TermIds> => {
      const w = new StateWriter();
      f.writeState(w);
      const g = new ForwardIndex<TermIds>(new Int8Array(0));
      g.readState(new StateReader(w.meta, w.sections.map(sectionBytes)));
      return g;
    };
    const n = 33_000; // (past 32,767: term ids four bytes wide once copied)
    const lists = (f: ForwardIndex<TermIds>, count: number) => Array.from({ length: count }, (_, d) => f.list(d));
    for (const breaker of ['none', 'other term', 'two', 'bulk', 'skipped', 'wider'] as const) {
      const f = new ForwardIndex<TermIds>(new Int8Array(0));
      for (let d = 0; d < n; d++) {
        f.begin(d);
        f.push(d);
      }
      const expected = Array.from({ length: n }, (_, d) => [d]);
      for (const g of [f, roundTrip(f)]) {
        expect(g.bytes()).toBe(0);
        expect(lists(g, n)).toEqual(expected);
        expect(g.list(n)).toEqual([]);
        const counts = new Int32Array(n);
        expect(g.countEntries(Int32Array.of(0, 7, n - 1, n), 0, 4, counts)).toBe(1);
        expect([counts[0], counts[7], counts[n - 1], counts[1]]).toEqual([1, 1, 1, 0]);
      }
      if (breaker === 'other term') {
        f.begin(n);
        f.push(3);
        expected.push([3]);
      } else if (breaker === 'two') {
        f.begin(n);
        f.push(n);
        f.push(n + 1);
        expected.push([n, n + 1]);
      } else if (breaker === 'bulk') {
        f.begin(n);
        const entries = f.room(1);
        entries[f.length] = n;
        f.commit(f.length + 1);
        expected.push([n]);
      } else if (breaker === 'skipped') {
        f.begin(n + 1);
        f.push(n + 1);
        expected.push([], [n + 1]);
      } else if (breaker === 'wider') {
        f.begin(n);
        f.fit(70_000);
        f.push(70_000);
        expected.push([70_000]);
      } else {
        f.begin(n);
        f.push(n);
        expected.push([n]);
      }
      // (written through room, the entries are the field's own; read back, they follow the rule again)
      expect([breaker, f.bytes() > 0]).toEqual([breaker, breaker !== 'none']);
      const read = roundTrip(f);
      expect([breaker, read.bytes() > 0]).toEqual([breaker, breaker !== 'none' && breaker !== 'bulk']);
      for (const g of [f, read]) expect(lists(g, expected.length)).toEqual(expected);
    }
  });

  it('reads back the width it wrote (index file)', () => {
    for (const max of [5, 300, 70_000]) {
      const f = new ForwardIndex<TermIds>(new Int8Array(0));
      f.begin(0);
      f.push(max);
      f.push(-1);
      const w = new StateWriter();
      f.writeState(w);
      const sections = w.sections.map(sectionBytes);
      const g = new ForwardIndex<TermIds>(new Int8Array(0));
      g.readState(new StateReader(w.meta, sections));
      expect(g.entries.constructor).toBe(f.entries.constructor);
      expect(g.list(0)).toEqual([max, -1]);
      g.begin(1);
      g.push(max + 100_000); // (widens after reading, too)
      expect(g.list(1)).toEqual([max + 100_000]);
    }
  });
});

