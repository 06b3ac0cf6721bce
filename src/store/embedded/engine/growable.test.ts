import { IntList, MAPPED_MIN_BYTES, allocate, allocateBuffer, grow, isMapped, trimmed } from './growable';

describe('growable typed arrays', () => {
  it('grow by doubling, keeping the contents and the type', () => {
    const a = Float64Array.of(1.5, 2);
    const b = grow(a, 3);
    expect(b).toBeInstanceOf(Float64Array);
    expect(b.length).toBeGreaterThanOrEqual(16);
    expect([...b.subarray(0, 2)]).toEqual([1.5, 2]);
    expect(grow(b, 2)).toBe(b);
    expect(grow(new Int32Array(16), 100).length).toBe(128);
    expect([...trimmed(Int32Array.of(1, 2, 3), 2)]).toEqual([1, 2]);
  });

  it('append to an int list', () => {
    const list = new IntList(1);
    for (let i = 0; i < 100; i++) list.push(i * 3);
    expect(list.length).toBe(100);
    expect(list.view()[99]).toBe(297);
  });

  it('make a large array a mapping of its own, zeroed, of the type and length asked, that grows and copies like any', () => {
    const length = MAPPED_MIN_BYTES / 4;
    const a = allocate(Int32Array, length);
    expect(a).toBeInstanceOf(Int32Array);
    expect(a.length).toBe(length);
    expect(isMapped(a)).toBe(true);
    expect(a.every((x) => x === 0)).toBe(true);
    a[0] = 7;
    a[length - 1] = -1;
    const b = grow(a, length + 1);
    expect(isMapped(b)).toBe(true);
    expect(b.length).toBe(2 * length);
    expect([b[0], b[length - 1], b[length], b[2 * length - 1]]).toEqual([7, -1, 0, 0]);
    expect(b.subarray(0, 2)).toEqual(Int32Array.of(7, 0));
    expect(Array.from(b.slice(length - 1, length + 1))).toEqual([-1, 0]);
    // small arrays are the C library's as before
    expect(isMapped(allocate(Int32Array, length / 2 - 1))).toBe(false);
    expect(isMapped(grow(new Float64Array(4), 5))).toBe(false);
  });

  it('start consecutive large arrays at different cache lines of their mappings', () => {
    const offsets = new Set<number>();
    for (let i = 0; i < 8; i++) {
      const a = allocate(Float64Array, MAPPED_MIN_BYTES / 8);
      expect(a.byteOffset % 64).toBe(0);
      expect(a.byteOffset + a.byteLength).toBeLessThanOrEqual(a.buffer.byteLength);
      offsets.add(a.byteOffset % 4096);
    }
    expect(offsets.size).toBe(8);
  });

  it('make large Buffers that read and write as Buffers', () => {
    const buffer = allocateBuffer(MAPPED_MIN_BYTES + 3);
    expect(Buffer.isBuffer(buffer)).toBe(true);
    expect(buffer.length).toBe(MAPPED_MIN_BYTES + 3);
    buffer.write('héllo', MAPPED_MIN_BYTES - 2, 'latin1');
    expect(buffer.toString('latin1', MAPPED_MIN_BYTES - 2, MAPPED_MIN_BYTES + 3)).toBe('héllo');
    expect(buffer[0]).toBe(0);
  });
});

describe('growable typed arrays where no mapping can be made', () => {
  type Growable = typeof import('./growable');
  const withWebAssembly = (replacement: unknown): Growable => {
    const real = Object.getOwnPropertyDescriptor(globalThis, 'WebAssembly')!;
    Object.defineProperty(globalThis, 'WebAssembly', { value: replacement, configurable: true, writable: true });
    try {
      let loaded: Growable | undefined;
      jest.isolateModules(() => {
        loaded = jest.requireActual<Growable>('./growable');
      });
      return loaded!;
    } finally {
      Object.defineProperty(globalThis, 'WebAssembly', real);
    }
  };

  it('after one failed mapping, makes every later large array an ordinary one without trying again', () => {
    let tries = 0;
    const g = withWebAssembly({
      Memory: class {
        constructor() {
          tries++;
          throw new RangeError('WebAssembly.Memory(): could not allocate memory');
        }
      },
    });
    expect(g.mappingLargeArrays()).toBe(true);
    const a = g.allocate(Int32Array, g.MAPPED_MIN_BYTES / 4);
    expect(a.length).toBe(g.MAPPED_MIN_BYTES / 4);
    expect(g.isMapped(a)).toBe(false);
    expect(g.mappingLargeArrays()).toBe(false);
    a[a.length - 1] = 5;
    const b = g.grow(a, a.length + 1);
    expect(b[a.length - 1]).toBe(5);
    for (let i = 0; i < 10; i++) g.allocateBuffer(g.MAPPED_MIN_BYTES);
    expect(tries).toBe(1);
  });

  it('loads and makes ordinary arrays without WebAssembly (node --jitless)', () => {
    const g = withWebAssembly(undefined);
    expect(g.mappingLargeArrays()).toBe(false);
    const a = g.allocate(Float64Array, g.MAPPED_MIN_BYTES);
    expect(a.length).toBe(g.MAPPED_MIN_BYTES);
    expect(g.isMapped(a)).toBe(false);
    expect(a.every((x) => x === 0)).toBe(true);
  });
});
