import fc from 'fast-check';
import { NOT_JSON, isExactJson, NO_ROOM, writeJson } from './jsonBytes';

const decode = (bytes: Uint8Array, end: number) => JSON.parse(new TextDecoder().decode(bytes.subarray(0, end))) as unknown;

describe('writeJson', () => {
  it('writes JSON that parses back to an equal value', () => {
    const buffer = new Uint8Array(1 << 16);
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const end = writeJson(value, buffer, 0);
        if (end === NOT_JSON) {
          // only values JSON text would change: -0 somewhere inside
          expect(JSON.stringify(value)).toBeDefined();
          return;
        }
        expect(decode(buffer, end)).toStrictEqual(value);
      }),
      { numRuns: 2000 },
    );
  });

  it('escapes what JSON requires and keeps every code point, lone surrogates included', () => {
    const buffer = new Uint8Array(1 << 16);
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: fc.constantFrom('"', '\\\\', '\\n', '\\u0000', '\\u001f', '\\u007f', '\\ud800', '\\udc00', 'é', '😀', 'a') }), (a, b) => {
        const value = { [a]: b, list: [a, b] };
        const end = writeJson(value, buffer, 0);
        expect(decode(buffer, end)).toStrictEqual(value);
      }),
    );
  });

  it('writes long strings, plain ASCII (copied whole) or not, exactly', () => {
    const buffer = new Uint8Array(1 << 16);
    const unit = fc.constantFrom('a', 'Z', ' ', '~', '!', '#', '[', ']', '"', '\\', '\n', '\u007f', 'é', '😀', '\ud800');
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', 'Z', ' ', '~', '#'), minLength: 20, maxLength: 300 }), fc.string({ unit, minLength: 0, maxLength: 40 }), (plain, mixed) => {
        const value = { plain, mixed: plain + mixed, list: [mixed + plain] };
        const end = writeJson(value, buffer, 0);
        expect(new TextDecoder().decode(buffer.subarray(0, end))).toBe(JSON.stringify(value));
        expect(decode(buffer, end)).toStrictEqual(value);
      }),
    );
    // a plain string ending exactly at the end of the room given
    const text = 'x'.repeat(40);
    const exact = new Uint8Array(6 * 40 + 2);
    expect(writeJson(text, exact, 0)).toBe(42);
    expect(new TextDecoder().decode(exact.subarray(0, 42))).toBe(JSON.stringify(text));
  });

  it('refuses what JSON text cannot carry', () => {
    const buffer = new Uint8Array(1024);
    expect(writeJson({ a: -0 }, buffer, 0)).toBe(NOT_JSON);
    expect(writeJson({ a: undefined }, buffer, 0)).toBe(NOT_JSON);
    expect(writeJson({ a: NaN }, buffer, 0)).toBe(NOT_JSON);
    expect(writeJson({ a: [1, , 2] }, buffer, 0)).toBe(NOT_JSON); // eslint-disable-line no-sparse-arrays
    expect(writeJson({ a: new Date(0) }, buffer, 0)).toBe(NOT_JSON);
    expect(writeJson({ a: () => 1 }, buffer, 0)).toBe(NOT_JSON);
    expect(writeJson(Object.create({ inherited: 1 }), buffer, 0)).toBe(NOT_JSON);
    const extra = Object.assign([1], { extra: true });
    expect(writeJson({ a: extra }, buffer, 0)).toBe(NOT_JSON);
    let deep: unknown = 1;
    for (let i = 0; i < 100; i++) deep = [deep];
    expect(writeJson(deep, buffer, 0)).toBe(NOT_JSON);
  });

  it('isExactJson says whether writeJson can write a value, for any value (JSON.stringify\'s text then reads back as writeJson\'s)', () => {
    const buffer = new Uint8Array(1 << 16);
    const odd = fc.constantFrom<unknown>(-0, undefined, NaN, Infinity, new Date(0), () => 1, Object.create({ inherited: 1 }), Object.assign([1], { extra: true }), [1, , 2], 10n); // eslint-disable-line no-sparse-arrays
    const value = fc.letrec((tie) => ({
      v: fc.oneof({ depthSize: 'small' }, fc.jsonValue({ maxDepth: 2 }), odd, fc.array(tie('v'), { maxLength: 4 }), fc.dictionary(fc.string(), tie('v'), { maxKeys: 4 })),
    })).v;
    fc.assert(
      fc.property(value, (v) => {
        const end = writeJson(v, buffer, 0);
        expect(isExactJson(v)).toBe(end !== NOT_JSON);
        // (what SourceStore reads back either way)
        if (end !== NOT_JSON) expect(JSON.parse(JSON.stringify(v))).toStrictEqual(decode(buffer, end));
      }),
      { seed: 17, numRuns: 2000 },
    );
    let deep: unknown = 1;
    for (let i = 0; i < 100; i++) deep = [deep];
    expect(isExactJson(deep)).toBe(false);
  });

  it('keeps own __proto__ keys and key order', () => {
    const buffer = new Uint8Array(1024);
    const value = JSON.parse('{"b": 1, "__proto__": {"x": 1}, "2": true, "a": [null]}') as Record<string, unknown>;
    const back = decode(buffer, writeJson(value, buffer, 0)) as Record<string, unknown>;
    expect(Object.keys(back)).toEqual(Object.keys(value));
    expect(back).toStrictEqual(value);
  });

  it('says when the buffer is too small, at any point of the value', () => {
    const value = { name: 'a long enough value é😀', n: [1, 2.5, true, null], nested: { k: 'v' } };
    const full = new Uint8Array(1024);
    const end = writeJson(value, full, 0);
    for (let size = 0; size < end; size++) expect(writeJson(value, new Uint8Array(size), 0)).toBe(NO_ROOM);
    const exact = new Uint8Array(end);
    expect(writeJson(value, exact, 0)).toBe(end);
    expect(decode(exact, end)).toStrictEqual(value);
    // writing at an offset
    const at = new Uint8Array(end + 10);
    expect(writeJson(value, at, 10)).toBe(end + 10);
    expect(JSON.parse(new TextDecoder().decode(at.subarray(10)))).toStrictEqual(value);
  });
});
