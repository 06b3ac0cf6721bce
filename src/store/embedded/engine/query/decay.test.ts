import { evaluateDecay, parseDecay, parseTimeMillis, processScale, selectDistance } from './decay';

describe('decay functions', () => {
  it('score `decay` at distance `scale` (each DecayFunction with its processScale)', () => {
    for (const kind of ['gauss', 'exp', 'linear'] as const) {
      expect(evaluateDecay(kind, 10, processScale(kind, 10, 0.25))).toBeCloseTo(0.25, 12);
      expect(evaluateDecay(kind, 0, processScale(kind, 10, 0.25))).toBe(1);
    }
    expect(evaluateDecay('linear', 50, processScale('linear', 10, 0.5))).toBe(0);
  });

  it('select a multi-valued distance as MultiValueMode does', () => {
    const sorted = Float64Array.of(1, 2, 6, 7);
    expect(['min', 'max', 'sum', 'avg', 'median'].map((m) => selectDistance(m as 'min', sorted, 4))).toEqual([1, 7, 16, 4, 4]);
    expect(selectDistance('median', sorted, 3)).toBe(2);
  });

  it('read time values as TimeValue.parseTimeValue', () => {
    expect(['10d', '12h', '5m', '30s', '250ms', '1500micros', '2000000nanos', '0', ' 2D '].map((t) => parseTimeMillis(t, 'x'))).toEqual([864e6, 432e5, 3e5, 3e4, 250, 1, 2, 0, 1728e5]);
    expect(() => parseTimeMillis('10w', 'q.scale')).toThrow('unit is missing or unrecognized');
    expect(() => parseTimeMillis(10, 'q.scale')).toThrow('must be a string');
  });

  it('read one field and multi_value_mode', () => {
    expect(parseDecay('gauss', { n: { origin: 1, scale: 2 }, multi_value_mode: 'MAX' }, 'q')).toEqual({ kind: 'gauss', field: 'n', params: { origin: 1, scale: 2 }, mode: 'max', path: 'q.n' });
    expect(() => parseDecay('gauss', {}, 'q')).toThrow('needs a field');
    expect(() => parseDecay('gauss', { n: 1 }, 'q')).toThrow('must be an object of origin, scale, offset and decay');
    expect(() => parseDecay('exp', { n: {}, multi_value_mode: 'mode' }, 'q')).toThrow('multi_value_mode');
  });
});
