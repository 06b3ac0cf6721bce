import { MODIFIERS, applyModifier, parseFieldValueFactor } from './fieldValueFactor';

describe('field_value_factor', () => {
  it('applies the modifiers as FieldValueFactorFunction.Modifier does', () => {
    const values = MODIFIERS.map((m) => applyModifier(m, 8));
    expect(values).toEqual([8, Math.log10(8), Math.log10(9), Math.log10(10), Math.log(8), Math.log1p(8), Math.log1p(9), 64, Math.sqrt(8), 0.125]);
  });

  it('reads factor as a float, missing as a double', () => {
    expect(parseFieldValueFactor({ field: 'a', factor: 0.1, missing: 0.1 }, 'q')).toEqual({ field: 'a', factor: Math.fround(0.1), modifier: 'none', missing: 0.1 });
    expect(parseFieldValueFactor({ field: 'a', modifier: 'LOG1P' }, 'q').modifier).toBe('log1p');
  });

  it('refuses a missing field, unknown parameters and modifiers', () => {
    expect(() => parseFieldValueFactor({}, 'q')).toThrow('requires a "field"');
    expect(() => parseFieldValueFactor({ field: 'a', scale: 1 }, 'q')).toThrow('unsupported parameter "scale"');
    expect(() => parseFieldValueFactor({ field: 'a', modifier: 'cube' }, 'q')).toThrow('must be one of');
    expect(() => parseFieldValueFactor({ field: 'a', factor: 'x' }, 'q')).toThrow('factor');
  });
});
