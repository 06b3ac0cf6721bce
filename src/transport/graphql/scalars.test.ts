import { Kind } from 'graphql';
import { DurationScalar, JsonScalar, LongScalar } from './scalars';

describe('Long', () => {
  it('carries millisecond timestamps beyond 2^31 exactly', () => {
    const t = 1_795_353_130_327;
    expect(LongScalar.serialize(t)).toBe(t);
    expect(LongScalar.parseValue(t)).toBe(t);
    expect(LongScalar.parseValue(String(t))).toBe(t);
    expect(LongScalar.parseLiteral({ kind: Kind.INT, value: String(t) })).toBe(t);
    expect(LongScalar.serialize(-1)).toBe(-1);
  });

  it.each([1.5, '12a', 2 ** 53, {}, null])('refuses %p', (v) => {
    expect(() => LongScalar.parseValue(v)).toThrow('Long cannot represent');
  });
});

describe('JSON', () => {
  it('reads object literals, with variables inside', () => {
    const ast = {
      kind: Kind.OBJECT,
      fields: [
        { kind: Kind.OBJECT_FIELD, name: { kind: Kind.NAME, value: 'match' }, value: { kind: Kind.OBJECT, fields: [{ kind: Kind.OBJECT_FIELD, name: { kind: Kind.NAME, value: 'name' }, value: { kind: Kind.VARIABLE, name: { kind: Kind.NAME, value: 'q' } } }] } },
        { kind: Kind.OBJECT_FIELD, name: { kind: Kind.NAME, value: 'n' }, value: { kind: Kind.LIST, values: [{ kind: Kind.INT, value: '1' }, { kind: Kind.FLOAT, value: '2.5' }, { kind: Kind.NULL }, { kind: Kind.BOOLEAN, value: true }] } },
      ],
    } as const;
    expect(JsonScalar.parseLiteral(ast as never, { q: 'france' })).toEqual({ match: { name: 'france' }, n: [1, 2.5, null, true] });
  });
});

describe('Duration', () => {
  it('takes ms strings and integers, and nothing else', () => {
    expect(DurationScalar.parseValue('2h')).toBe('2h');
    expect(DurationScalar.parseValue(3_600_000)).toBe(3_600_000);
    expect(() => DurationScalar.parseValue(1.5)).toThrow();
    expect(() => DurationScalar.parseValue(true)).toThrow();
  });
});
