import fc from 'fast-check';
import { booleanTerm, floatToJson, toBoolean, toDate, toDouble, toFloat, toKeyword, toLong, toText } from './fieldValues';

describe('field value coercion (coerce: true)', () => {
  it('reads numbers and numeric strings', () => {
    expect(toDouble(' 12 ')).toBe(12);
    expect(toDouble('1e3')).toBe(1000);
    expect(toDouble('1.5f')).toBe(1.5);
    expect(toDouble('abc')).toBeNull();
    expect(toDouble(true)).toBeNull();
    expect(toDouble(Infinity)).toBeNull();
  });

  it('truncates longs and rounds floats to 32 bits', () => {
    expect(toLong(1.9)).toBe(1);
    expect(toLong(-1.9)).toBe(-1);
    expect(Object.is(toLong(-0.5), 0)).toBe(true);
    expect(toLong('42')).toBe(42);
    expect(toLong(1e30)).toBeNull();
    expect(toFloat(0.1)).toBe(Math.fround(0.1));
    expect(toFloat(1e60)).toBeNull();
  });

  it('reads booleans strictly', () => {
    expect(toBoolean(true)).toBe(true);
    expect(toBoolean('false')).toBe(false);
    expect(toBoolean('yes')).toBeNull();
    expect(toBoolean(1)).toBeNull();
    expect(booleanTerm(true)).toBe('T');
    expect(booleanTerm(false)).toBe('F');
  });

  it('turns scalars into text', () => {
    expect(toText('a')).toBe('a');
    expect(toText(5)).toBe('5');
    expect(toKeyword(false)).toBe('false');
    expect(toText({})).toBeNull();
    expect(toText(null)).toBeNull();
  });

  it('reads dates', () => {
    expect(toDate('1970-01-02')).toBe(86_400_000);
    expect(toDate(5)).toBe(5);
    expect(toDate('not a date')).toBeNull();
  });

  it('prints floats as Java does (shortest round-trip decimal)', () => {
    expect(floatToJson(Math.fround(0.1))).toBe(0.1);
    expect(floatToJson(Math.fround(1.1727304458618164))).toBe(1.1727304);
    expect(floatToJson(2)).toBe(2);
    expect(Math.fround(floatToJson(Math.fround(123.456)))).toBe(Math.fround(123.456));
  });

  it('prints floats as the shortest decimal, whatever the float (bisection agrees with trying every length)', () => {
    const reference = (value: number) => {
      if (!Number.isFinite(value) || Number.isInteger(value)) return value;
      for (let digits = 1; digits <= 9; digits++) {
        const candidate = Number(value.toPrecision(digits));
        if (Math.fround(candidate) === value) return candidate;
      }
      return value;
    };
    const floats = fc.oneof(
      fc.float({ noNaN: true }),
      fc.integer({ min: -149, max: 127 }).map((e) => Math.fround(2 ** e)),
      fc.double({ noNaN: true }),
      fc.integer({ min: 1, max: 100000 }).map((n) => Math.fround(n / 7)),
    );
    fc.assert(fc.property(floats, (value) => Object.is(floatToJson(value), reference(value))), { numRuns: 20000 });
    // scores and sort values: every float of a wide band, by a stride, and next to powers of ten and halves
    let x = 0x12345;
    const next = () => (x = (Math.imul(x, 1103515245) + 12345) >>> 0);
    const buffer = new Float32Array(1);
    const bits = new Uint32Array(buffer.buffer);
    for (let i = 0; i < 200_000; i++) {
      bits[0] = 0x30000000 + (next() % 0x1e000000); // about 4.7e-10 to 2.1e7
      const value = buffer[0] * (i % 2 === 0 ? 1 : -1);
      if (!Object.is(floatToJson(value), reference(value))) throw new Error(`${value}: ${floatToJson(value)} instead of ${reference(value)}`);
    }
    for (let e = -20; e <= 7; e++) {
      for (const m of [1, 1.5, 2.5, 9.5, 9.999999]) {
        for (let step = -3; step <= 3; step++) {
          buffer[0] = m * 10 ** e;
          bits[0] += step;
          const value = buffer[0];
          expect([value, floatToJson(value)]).toEqual([value, reference(value)]);
        }
      }
    }
  });
});
