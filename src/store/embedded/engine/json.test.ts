import { cloneJson, describe as describeValue, hasOwn, isPlainObject, quote, setOwn } from './json';

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
