import { javaInt, javaParseFloat } from './javaNumbers';

describe('Java number reading', () => {
  it('reads floats as Float.parseFloat does, in float precision', () => {
    expect(javaParseFloat('2')).toBe(2);
    expect(javaParseFloat(' 1.5f ')).toBe(1.5);
    expect(javaParseFloat('0.1')).toBe(Math.fround(0.1));
    expect(javaParseFloat('1e1')).toBe(10);
    expect(javaParseFloat('.5')).toBe(0.5);
    expect(javaParseFloat('-Infinity')).toBe(-Infinity);
    expect(javaParseFloat('abc')).toBeNaN();
    expect(javaParseFloat('')).toBeNaN();
    expect(javaParseFloat('0x10')).toBeNaN();
  });

  it('casts to int as Java does', () => {
    expect(javaInt(2.9)).toBe(2);
    expect(javaInt(-2.9)).toBe(-2);
    expect(javaInt(NaN)).toBe(0);
    expect(javaInt(1e20)).toBe(2147483647);
  });
});
