import { Kind, parseValue } from 'graphql';
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

describe('JSON literals from abuse', () => {
  it('keeps __proto__, constructor and prototype as plain keys, in order', () => {
    const value = JsonScalar.parseLiteral(parseValue('{a: 1, __proto__: {polluted: 1}, constructor: {prototype: {polluted: 2}}, z: [1, {__proto__: 2}]}'));
    expect(JSON.stringify(value)).toBe('{"a":1,"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":2}},"z":[1,{"__proto__":2}]}');
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
  });

  it.each(['1e999', '-1e999', '1e-999', `1${'0'.repeat(400)}`])('refuses the number %s', (n) => {
    expect(() => JsonScalar.parseLiteral(parseValue(`{n: [${n}]}`))).toThrow(/out of the range of a double/);
  });

  it('reads a literal nested 100,000 levels without recursion', () => {
    let node: any = { kind: Kind.INT, value: '7' };
    for (let i = 0; i < 100_000; i++) node = { kind: Kind.LIST, values: [{ kind: Kind.OBJECT, fields: [{ kind: Kind.OBJECT_FIELD, name: { kind: Kind.NAME, value: 'a' }, value: node }] }] };
    let value: any = JsonScalar.parseLiteral(node);
    for (let i = 0; i < 100_000; i++) value = value[0].a;
    expect(value).toBe(7);
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
