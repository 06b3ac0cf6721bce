import { CompensatedSum, javaDouble, jsonDouble } from './numbers';

describe('javaDouble (Double.toString)', () => {
  it.each([
    [100, '100.0'],
    [0, '0.0'],
    [-0, '-0.0'],
    [1.5, '1.5'],
    [-250, '-250.0'],
    [0.001, '0.001'],
    [0.0001, '1.0E-4'],
    [1e7, '1.0E7'],
    [12345678.9, '1.23456789E7'],
    [1704067200000, '1.7040672E12'],
    [Math.fround(1.1), '1.100000023841858'],
    [NaN, 'NaN'],
    [Infinity, 'Infinity'],
  ])('%p prints %p', (value, text) => expect(javaDouble(value)).toBe(text));
});

describe('jsonDouble', () => {
  it('keeps finite numbers and quotes the others as Jackson does', () => {
    expect(jsonDouble(2.5)).toBe(2.5);
    expect(jsonDouble(NaN)).toBe('NaN');
    expect(jsonDouble(-Infinity)).toBe('-Infinity');
  });
});

describe('CompensatedSum', () => {
  it('adds without the drift of plain addition', () => {
    const sum = new CompensatedSum();
    let plain = 0;
    for (let i = 0; i < 10; i++) {
      sum.add(0.1);
      plain += 0.1;
    }
    expect(plain).not.toBe(1);
    expect(sum.value).toBe(1);
  });

  it('goes on with plain addition once not finite', () => {
    const sum = new CompensatedSum();
    sum.add(1);
    sum.add(Infinity);
    sum.add(1);
    expect(sum.value).toBe(Infinity);
  });
});
