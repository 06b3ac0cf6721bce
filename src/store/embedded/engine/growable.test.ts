import { IntList, grow, trimmed } from './growable';

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
});
