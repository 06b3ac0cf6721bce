import { RawJson, stringifyAnswer } from './rawJson';

const raw = (value: unknown) => new RawJson(Buffer.from(JSON.stringify(value)), () => value);

describe('stringifyAnswer', () => {
  it('writes what JSON.stringify writes for the parsed values, byte for byte', () => {
    const sources = [{ name: 'Zoë "quoted"', n: 1.5, tags: ['a', 'b'], nested: { x: null } }, { emoji: '😀', line: 'a\nb' }, []];
    const plain = { data: { search: { total: 3, hits: sources.map((source, i) => ({ id: `id${i}`, score: 0.5, source })) } } };
    const withRaw = { data: { search: { total: 3, hits: sources.map((source, i) => ({ id: `id${i}`, score: 0.5, source: raw(source) })) } } };
    expect(stringifyAnswer(withRaw)).toBe(`${JSON.stringify(plain)}\n`);
  });

  it('is JSON.stringify plus a newline when there is no stored text', () => {
    const value = { data: { me: { userId: 'u1' } }, errors: [{ message: 'x' }] };
    expect(stringifyAnswer(value)).toBe(`${JSON.stringify(value)}\n`);
  });

  it('serializes the parsed value anywhere else (graphql-ws messages)', () => {
    const source = { name: 'France' };
    expect(JSON.stringify({ payload: { source: raw(source) } })).toBe('{"payload":{"source":{"name":"France"}}}');
  });

  it('leaves user strings alone, even ones that look like the stand-in', () => {
    const value = { a: '\u0000', b: raw({ c: '\u0000' }) };
    expect(stringifyAnswer(value)).toBe('{"a":"\\u0000","b":{"c":"\\u0000"}}\n');
  });
});
