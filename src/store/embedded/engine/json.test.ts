import { cloneJson, describe as describeValue, forInIsOwn, hasOwn, isPlainObject, quote, setOwn } from './json';

describe('json helpers', () => {
  it('only sees own properties', () => {
    const obj = JSON.parse('{"__proto__": 1, "a": 2}') as Record<string, unknown>;
    expect(hasOwn(obj, '__proto__')).toBe(true);
    expect(hasOwn({}, 'toString')).toBe(false);
    expect(hasOwn({}, 'constructor')).toBe(false);
  });

  it('tells objects from arrays and null', () => {
    expect(isPlainObject({})).toBe(true);
    expect(isPlainObject([])).toBe(false);
    expect(isPlainObject(null)).toBe(false);
  });

  it('says when for-in visits the own keys only: plain and null-prototype objects, while Object.prototype has no enumerable key', () => {
    expect(forInIsOwn(JSON.parse('{"__proto__": 1, "a": 2}') as object)).toBe(true);
    expect(forInIsOwn(Object.create(null) as object)).toBe(true);
    expect(forInIsOwn(Object.create({ inherited: 1 }) as object)).toBe(false);
    class Point {
      x = 1;
    }
    expect(forInIsOwn(new Point())).toBe(false);
    Object.defineProperty(Object.prototype, 'polluted', { value: 1, enumerable: true, configurable: true });
    try {
      expect(forInIsOwn({ a: 1 })).toBe(false);
      expect(forInIsOwn(Object.create(null) as object)).toBe(true);
    } finally {
      delete (Object.prototype as Record<string, unknown>).polluted;
    }
    expect(forInIsOwn({ a: 1 })).toBe(true);
  });

  it('describes values for messages', () => {
    expect(describeValue(null)).toBe('null');
    expect(describeValue([1])).toBe('an array');
    expect(describeValue('x')).toBe('the string "x"');
    expect(describeValue(2)).toBe('the number 2');
    expect(quote('a"b')).toBe('"a\\"b"');
  });
});

describe('cloneJson', () => {
  it('copies deeply, own __proto__ keys included, at any depth', () => {
    const source = JSON.parse('{"a": [1, {"b": null}], "__proto__": {"x": 1}}') as Record<string, unknown>;
    const copy = cloneJson(source);
    expect(copy).toEqual(source);
    expect(copy.a).not.toBe(source.a);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(['a', '__proto__']);
    const deep = JSON.parse('['.repeat(50_000) + ']'.repeat(50_000)) as unknown;
    expect(() => cloneJson(deep)).not.toThrow();
    const obj: Record<string, unknown> = {};
    setOwn(obj, '__proto__', 1);
    expect(Object.keys(obj)).toEqual(['__proto__']);
  });
});
