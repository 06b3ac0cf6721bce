import fc from 'fast-check';
import { checkJsonValue, graphqlDepthExceeds, jsonTextDepthExceeds, outOfRangeNumber, parseJsonBytes } from './jsonText';

const bytes = (text: string) => Buffer.from(text, 'utf8');

const nested = (n: number, open = '[', close = ']', inner = '1') => open.repeat(n) + inner + close.repeat(n);

/** The depth of a parsed JSON value, the slow and obvious way (test oracle). */
function depthOf(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  const children = Array.isArray(value) ? value : Object.values(value);
  return 1 + children.reduce<number>((max, child) => Math.max(max, depthOf(child)), 0);
}

describe('jsonTextDepthExceeds', () => {
  it.each([
    ['1', 0, false],
    ['[]', 1, false],
    ['[]', 0, true],
    [nested(5), 5, false],
    [nested(5), 4, true],
    [nested(3, '{"a":', '}'), 3, false],
    [nested(3, '{"a":', '}'), 2, true],
    ['[[1],[2],[[3]]]', 3, false],
    ['[[1],[2],[[3]]]', 2, true],
  ])('%s with limit %d: %p', (text, limit, expected) => {
    expect(jsonTextDepthExceeds((text), limit)).toBe(expected);
  });

  it('skips brackets and escaped quotes inside strings', () => {
    expect(jsonTextDepthExceeds((`["${'['.repeat(50)}", "\\"[[[[", {"k[[[": "]]]"}]`), 2)).toBe(false);
    expect(jsonTextDepthExceeds((`["\\\\", [[1]]]`), 3)).toBe(false);
    expect(jsonTextDepthExceeds((`["\\\\", [[1]]]`), 2)).toBe(true);
  });

  it('ends a string at a quote after an even run of backslashes only', () => {
    // each string holds escaped backslashes then an escaped quote, then brackets that are text
    for (const pairs of [0, 1, 2, 5]) {
      const string = `"${'\\\\'.repeat(pairs)}\\"[[[[${'\\\\'.repeat(pairs)}"`;
      expect(JSON.parse(string)).toBe(`${'\\'.repeat(pairs)}"[[[[${'\\'.repeat(pairs)}`);
      expect(jsonTextDepthExceeds(`[${string}, [1]]`, 2)).toBe(false);
      expect(jsonTextDepthExceeds(`[${string}, [[1]]]`, 2)).toBe(true);
    }
    // a string never closed: its brackets are text to the end
    expect(jsonTextDepthExceeds(`["[[[[\\"`, 1)).toBe(false);
  });

  it('reads any character without mistaking it for a bracket', () => {
    expect(jsonTextDepthExceeds((`["é[日本]🙂", ${nested(3)}]`), 4)).toBe(false);
    expect(jsonTextDepthExceeds((`["é[日本]🙂", ${nested(3)}]`), 3)).toBe(true);
  });

  it('scans 200,000 levels without recursion', () => {
    expect(jsonTextDepthExceeds((nested(200_000)), 1000)).toBe(true);
  });

  it('agrees with the depth of the parsed value, for any JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), fc.integer({ min: 0, max: 8 }), (value, limit) => {
        const text = JSON.stringify(value);
        expect(jsonTextDepthExceeds((text), limit)).toBe(depthOf(value) > limit);
      }),
      { seed: 1, numRuns: 500 },
    );
  });
});

describe('graphqlDepthExceeds', () => {
  it('counts selection sets, argument lists and literals', () => {
    expect(graphqlDepthExceeds('{ a(x: [[1]]) { b } }', 4)).toBe(false);
    expect(graphqlDepthExceeds('{ a(x: [[1]]) { b } }', 3)).toBe(true);
  });

  it('skips strings, block strings and comments', () => {
    const query = `# {{{{{{ [[[[
      { a(x: "{{{{\\"[[[[", y: """ {{{{ \\""" [[[[ """) { b } }`;
    expect(graphqlDepthExceeds(query, 2)).toBe(false);
    expect(graphqlDepthExceeds(query, 1)).toBe(true);
  });

  it('scans 100,000 levels without recursion', () => {
    expect(graphqlDepthExceeds(`{ a(x: ${nested(100_000, '{a:', '}')}) }`, 1000)).toBe(true);
  });
});

describe('outOfRangeNumber', () => {
  it.each(['1e999', '-1e999', '1e-999', '1E+400', `1${'0'.repeat(400)}`, `0.${'0'.repeat(400)}1`, '-0.5e-400', '1e0000000400'])('finds %s', (n) => {
    expect(outOfRangeNumber(`{"a":[1,${n}]}`)).toBe(n);
  });

  it.each(['0', '-0', '0e-999', '0.000e999', '1e308', '4.9e-324', '1e-320', '123456789012345678901234567890', '1.5e-300'])('accepts %s', (n) => {
    expect(outOfRangeNumber(`{"a":[1,${n}]}`)).toBeUndefined();
  });

  it('does not read numbers inside strings', () => {
    expect(outOfRangeNumber('{"1e999":"1e999 and \\"1e-999\\""}')).toBeUndefined();
  });
});

describe('parseJsonBytes', () => {
  const limits = { maxDepth: 3 };

  it('parses JSON within the limits', () => {
    expect(parseJsonBytes(bytes('{"a":[{"b":"é"}]}'), limits)).toEqual({ ok: true, value: { a: [{ b: 'é' }] }, text: '{"a":[{"b":"é"}]}' });
  });

  it.each([
    ['bytes that are not UTF-8', Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]), 'network.http.body_parse_failed', /UTF-8/],
    ['a lone continuation byte', Buffer.from([0x22, 0x80, 0x22]), 'network.http.body_parse_failed', /UTF-8/],
    ['an overlong encoding', Buffer.from([0x22, 0xc0, 0xaf, 0x22]), 'network.http.body_parse_failed', /UTF-8/],
    ['an encoded surrogate', Buffer.from([0x22, 0xed, 0xa0, 0x80, 0x22]), 'network.http.body_parse_failed', /UTF-8/],
    ['too deep', bytes(nested(4)), 'api.assert.body_too_deep', /3 levels/],
    ['NaN', bytes('{"a":NaN}'), 'network.http.body_parse_failed', /JSON/],
    ['Infinity', bytes('[Infinity]'), 'network.http.body_parse_failed', /JSON/],
    ['1e999', bytes('[1e999]'), 'network.http.body_parse_failed', /1e999 is out of the range/],
    ['1e-999', bytes('[1e-999]'), 'network.http.body_parse_failed', /1e-999 is out of the range/],
  ])('refuses %s', (_title, input, id, message) => {
    const parsed = parseJsonBytes(input, limits);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.error.id).toBe(id);
    expect(parsed.error.message).toMatch(message);
  });

  it('allows `wrapping` levels more', () => {
    expect(parseJsonBytes(bytes(nested(4)), { maxDepth: 3, wrapping: 1 }).ok).toBe(true);
    const refused = parseJsonBytes(bytes(nested(5)), { maxDepth: 3, wrapping: 1 });
    expect(!refused.ok && refused.error.props).toEqual({ limit: 3 });
  });

  it('keeps __proto__ as a plain key', () => {
    const parsed = parseJsonBytes(bytes('{"__proto__":{"polluted":1}}'), limits);
    expect(parsed.ok && Object.keys(parsed.value as object)).toEqual(['__proto__']);
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });
});

describe('checkJsonValue', () => {
  it('measures depth iteratively and refuses non-finite numbers', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(checkJsonValue(deep, { maxDepth: 1000 })?.id).toBe('api.assert.body_too_deep');
    expect(checkJsonValue({ a: [1, { b: Infinity }] }, { maxDepth: 10 })?.id).toBe('network.http.body_parse_failed');
    expect(checkJsonValue({ a: [1, { b: 2 }] }, { maxDepth: 3 })).toBeUndefined();
    expect(checkJsonValue({ a: [1, { b: 2 }] }, { maxDepth: 2 })?.props).toEqual({ limit: 2 });
    expect(checkJsonValue({ a: [1, { b: 2 }] }, { maxDepth: 2, wrapping: 1 })).toBeUndefined();
  });
});
