import fc from 'fast-check';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { getDefaultSliceMs, pausedSearches, setDefaultSliceMs } from '../scheduler/scheduler';
import { jsonTextDepthExceeds, parseJsonBytes, type ParsedJson } from './jsonText';
import { jsonSpansSteps, parseJsonBytesSliced, parseJsonSteps, type JsonOutcome, type JsonSpans } from './slicedJson';

/** Steps run to their end, pausing at every check (`over` always true); how many pauses. */
function finish<T>(steps: Generator<void, T, void>): { outcome: T; pauses: number } {
  let pauses = 0;
  for (;;) {
    const next = steps.next();
    if (next.done) return { outcome: next.value, pauses };
    pauses++;
  }
}

const spansOf = (text: string): JsonSpans | null => finish(jsonSpansSteps(text, 1000, () => true)).outcome;

/** The loop alone, or (`spanned`) with the spans the nesting scan finds, as jsonBytesSteps runs it. */
function run(text: string, spanned = false): { outcome: JsonOutcome; pauses: number } {
  return finish(parseJsonSteps(text, () => true, spanned ? (spansOf(text) ?? undefined) : undefined));
}

/** What JSON.parse makes of the text: its value, or its error's message. */
function reference(text: string): JsonOutcome {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (err) {
    return { ok: false, message: (err as Error).message };
  }
}

/**
 * The same own keys in the same order, the same values, the same prototypes (Jest's equality would
 * read an own `constructor` key as the constructor, and let a prototype set by `__proto__` pass).
 */
function sameJson(a: unknown, b: unknown): boolean {
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return Object.is(a, b);
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  const keys = Object.keys(a);
  if (keys.join('\u0000') !== Object.keys(b).join('\u0000')) return false;
  return keys.every((k) => Object.getOwnPropertyDescriptor(a, k)!.enumerable && sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

const withoutOutOfRange = (o: JsonOutcome): JsonOutcome => (o.ok ? { ok: true, value: o.value } : o);

/** JSON values whose objects may hold keys JSON.parse keeps as own data: __proto__, constructor. */
const jsonish = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.oneof(fc.string(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer(), fc.boolean(), fc.constant(null)),
    fc.array(tie('value'), { maxLength: 5 }),
    fc.dictionary(fc.oneof(fc.string(), fc.constantFrom('__proto__', 'constructor', 'toString', '0', '10', '1')), tie('value'), { maxKeys: 5 }),
  ),
})).value;

/** Text of a value, with whitespace between tokens or none. */
const spaced = (value: unknown, seed: number) => JSON.stringify(value, null, ['', ' ', '\t', '\r\n '][seed % 4]);

describe('parseJsonSteps: JSON.parse, a slice at a time', () => {
  it('makes the same value as JSON.parse, __proto__ an own key, pausing as asked', () => {
    fc.assert(
      fc.property(jsonish, fc.nat(10), (value, seed) => {
        const text = spaced(value, seed);
        const { outcome } = run(text);
        const expected = JSON.parse(text) as unknown;
        expect(outcome.ok).toBe(true);
        if (!outcome.ok) return;
        expect(sameJson(outcome.value, expected)).toBe(true);
      }),
      { seed: 7, numRuns: 400 },
    );
  });

  it('keeps __proto__ as data, never as the prototype', () => {
    const { outcome } = run('{"a":{"__proto__":{"polluted":true},"b":1}}');
    expect(outcome.ok).toBe(true);
    const a = (outcome as { value: { a: Record<string, unknown> } }).value.a;
    expect(Object.getPrototypeOf(a)).toBe(Object.prototype);
    expect(Object.keys(a)).toEqual(['__proto__', 'b']);
    expect((a as { polluted?: boolean }).polluted).toBeUndefined();
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });

  it('pauses every thousand values or so', () => {
    const text = JSON.stringify({ query: { terms: { name: Array.from({ length: 5000 }, (_, i) => `z${i}`) } } });
    const { outcome, pauses } = run(text);
    expect(withoutOutOfRange(outcome)).toEqual(reference(text));
    expect(pauses).toBeGreaterThanOrEqual(4);
  });

  it.each([
    '',
    '  ',
    'x',
    '[1,2',
    '{"a" 1}',
    '{"a":1 "b"}',
    '{1:2}',
    '{,}',
    '["a\nb"]',
    '["ab',
    '[-]',
    '[1e]',
    '[1e+',
    '[1.]',
    '["\\x"]',
    '["\\u12x4"]',
    '["\\u12',
    '["\\u1',
    '["a\\',
    '[1] 2',
    '[01]',
    '[-01]',
    '[tru]',
    '[tru',
    '{"a":1,}',
    '[1,]',
    '{"a":1,"b" x}',
    '{"a":1,"b"}',
    '[{"c":1},{"b" 2}]',
    '{"a":[1,{"x":2,"y"}]}',
    `[${'1,'.repeat(30)}x${',1'.repeat(30)}]`,
    `[x${',1'.repeat(30)}]`,
    `[${'1,'.repeat(30)}x]`,
    '{"a":NaN}',
    '[Infinity]',
    '[1,2,3]\u00a0',
    '["a\\日"]',
    '["a\\é"]',
    '["a\\🙂 and more than ten characters"]',
  ])('refuses %j with JSON.parse\'s message', (text) => {
    expect(run(text).outcome).toEqual(reference(text));
  });

  it('refuses what JSON.parse refuses, with its message, for any one-character change of valid JSON', () => {
    const chars = ['"', '\\', '{', '}', '[', ']', ',', ':', '-', '0', '1', '.', 'e', 'E', '+', 't', 'n', 'u', ' ', '\n', '\u0001', 'x', 'é'];
    fc.assert(
      fc.property(jsonish, fc.nat(), fc.constantFrom(...chars), fc.constantFrom('insert', 'replace', 'delete', 'cut'), (value, where, c, how) => {
        const text = JSON.stringify(value);
        const at = where % (text.length + 1);
        const changed =
          how === 'insert' ? text.slice(0, at) + c + text.slice(at) : how === 'replace' ? text.slice(0, at) + c + text.slice(at + 1) : how === 'delete' ? text.slice(0, at) + text.slice(at + 1) : text.slice(0, at);
        if (['NaN', 'undefined', 'Infinity', '[object Object]'].includes(changed)) return; // V8 words these whole texts apart
        expect(withoutOutOfRange(run(changed).outcome)).toEqual(reference(changed));
      }),
      { seed: 11, numRuns: 3000 },
    );
  });

  it('names the first number a double cannot hold, as outOfRangeNumber does', () => {
    expect(run('[1, 1e999, -1e999]').outcome).toEqual({ ok: true, value: [1, Infinity, -Infinity], outOfRange: '1e999' });
    expect(run('[0.0, 0e5, -0, 1e-999]').outcome).toMatchObject({ ok: true, outOfRange: '1e-999' });
    expect(run('[0.0, 0e-999, -0]').outcome).toEqual({ ok: true, value: [0, 0, -0] });
  });
});

/** An entity of a bulk body (its fields, some of them objects, long enough to be spans), from a seed. */
const entity = (k: number) => ({ _id: `e${k}`, name: `name ${k} of some words`, rank: k * 7.5, tags: ['a', `b${k}`], meta: { nested: { deep: [k, { x: `y${k}` }] }, note: 'é日本🙂 \\ "quoted"' } });

describe('parseJsonSteps with the spans of the nesting scan (JSON.parse per entity)', () => {
  const bulk = JSON.stringify(Array.from({ length: 20 }, (_, k) => entity(k)));

  it('finds the entities of a bulk body, and those of Kuzzle\'s documents, as spans', () => {
    const spans = spansOf(bulk)!;
    // each entity, and its `meta` (level 3): every other span
    expect(spans.count).toBe(40);
    expect(bulk.slice(spans.starts[0], spans.ends[0] + 1)).toBe(JSON.stringify(entity(0)));
    const kuzzle = JSON.stringify({ documents: Array.from({ length: 50 }, (_, k) => ({ _id: `e${k}`, body: entity(k) })) });
    const items = spansOf(kuzzle)!;
    expect(kuzzle.slice(items.starts[1], items.ends[1] + 1)).toBe(JSON.stringify({ _id: 'e0', body: entity(0) }));
  });

  it('makes the same value as JSON.parse, __proto__ an own key', () => {
    fc.assert(
      fc.property(fc.array(jsonish, { minLength: 1, maxLength: 8 }), fc.nat(10), fc.boolean(), (values, seed, inObject) => {
        const text = spaced(inObject ? { documents: values.map((body) => ({ body, pad: 'x'.repeat(seed * 4) })) } : values, seed);
        const { outcome } = run(text, true);
        expect(outcome.ok).toBe(true);
        if (outcome.ok) expect(sameJson(outcome.value, JSON.parse(text))).toBe(true);
      }),
      { seed: 8, numRuns: 400 },
    );
    const { outcome } = run(`[{"__proto__":{"polluted":true},"constructor":"${'c'.repeat(40)}"}]`, true);
    const [first] = (outcome as { value: Record<string, unknown>[] }).value;
    expect(Object.getPrototypeOf(first)).toBe(Object.prototype);
    expect(Object.keys(first)).toEqual(['__proto__', 'constructor']);
  });

  it('refuses what JSON.parse refuses, with its message, for any one-character change of a bulk body', () => {
    const chars = ['"', '\\', '{', '}', '[', ']', ',', ':', '-', '0', '1', '.', 'e', 't', ' ', '\n', '\u0001', 'x', 'é'];
    fc.assert(
      fc.property(fc.nat(), fc.constantFrom(...chars), fc.constantFrom('insert', 'replace', 'delete', 'cut'), (where, c, how) => {
        const at = where % (bulk.length + 1);
        const changed = how === 'insert' ? bulk.slice(0, at) + c + bulk.slice(at) : how === 'replace' ? bulk.slice(0, at) + c + bulk.slice(at + 1) : how === 'delete' ? bulk.slice(0, at) + bulk.slice(at + 1) : bulk.slice(0, at);
        expect(withoutOutOfRange(run(changed, true).outcome)).toEqual(reference(changed));
      }),
      { seed: 12, numRuns: 2000 },
    );
  });

  it('names the first number a double cannot hold, in a span or not', () => {
    const pad = 'p'.repeat(40);
    expect(run(`[{"a":1,"pad":"${pad}"},{"a":1e999,"b":-1e999,"pad":"${pad}"},1e-999]`, true).outcome).toMatchObject({ ok: true, outOfRange: '1e999' });
    expect(run(`[1e-999,{"a":1e999,"pad":"${pad}"}]`, true).outcome).toMatchObject({ ok: true, outOfRange: '1e-999' });
    expect(run(`[{"a":0e-999,"pad":"${pad}"}]`, true).outcome).toEqual({ ok: true, value: [{ a: 0, pad }] });
    // a syntax error after the number out of range is the error
    const text = `[{"a":1e999,"pad":"${pad}"},{"a" 1,"pad":"${pad}"}]`;
    expect(run(text, true).outcome).toEqual(reference(text));
  });

  it('pauses as often as the loop alone', () => {
    const text = JSON.stringify(Array.from({ length: 2000 }, (_, k) => entity(k)));
    expect(run(text, true).pauses).toBeGreaterThanOrEqual(run(text).pauses / 2);
    expect(run(text, true).pauses).toBeGreaterThan(10);
  });

  it('refuses exactly the texts nested too deep', () => {
    fc.assert(
      fc.property(jsonish, fc.nat(6), fc.nat(), (value, limit, cut) => {
        const text = JSON.stringify(value);
        const changed = text.slice(0, cut % (text.length + 1));
        for (const t of [text, changed, `["\\\\",${text}]`, `["é[日本]🙂",${text}]`]) {
          expect(finish(jsonSpansSteps(t, limit, () => true)).outcome === null).toBe(jsonTextDepthExceeds(t, limit));
        }
      }),
      { seed: 13, numRuns: 1000 },
    );
  });
});

describe('parseJsonSteps: what a value keeps', () => {
  it('a long string kept from a large body does not keep the body alive', () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const kept: string[] = [];
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let b = 0; b < 100; b++) {
      const body = JSON.stringify(Array.from({ length: 2000 }, (_, k) => ({ description: `a long enough description ${b} ${k}`, short: `s${k}` })));
      const { outcome } = run(body, b % 2 === 0); // (each entity a span, every other body)
      if (!outcome.ok) throw new Error(outcome.message);
      const values = outcome.value as { description: string; short: string }[];
      kept.push(values[7].description, values[7].short);
    }
    gc();
    // 100 bodies of 130 KB: 13 MB if each kept value were a view into its body
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(3 * 1024 * 1024);
    expect(kept.slice(0, 2)).toEqual(['a long enough description 0 7', 's7']);
  });
});

describe('parseJsonBytesSliced', () => {
  const saved = getDefaultSliceMs();
  // slices of 0 ms: every check pauses, so the order of what runs is certain
  beforeAll(() => setDefaultSliceMs(0));
  afterAll(() => setDefaultSliceMs(saved));

  const limits = { maxDepth: 1000 };
  const parse = (bytes: Buffer, threshold: number, log: string[]) =>
    new Promise<ParsedJson>((resolve) =>
      parseJsonBytesSliced(
        bytes,
        limits,
        (parsed) => {
          log.push('parsed');
          resolve(parsed);
        },
        threshold,
      ),
    );

  it('answers a small body at once, as parseJsonBytes', () => {
    const log: string[] = [];
    let got: ParsedJson | undefined;
    parseJsonBytesSliced(Buffer.from('{"a":[1,2]}'), limits, (parsed) => (got = parsed));
    expect(got).toEqual(parseJsonBytes(Buffer.from('{"a":[1,2]}'), limits));
    expect(log).toEqual([]);
  });

  it('parses a large body in slices, other work running in between, to the same value', async () => {
    const body = Buffer.from(JSON.stringify({ query: { terms: { name: Array.from({ length: 20_000 }, (_, i) => `z${i}`) } } }));
    const log: string[] = [];
    const parsed = parse(body, 1024, log);
    expect(log).toEqual([]); // not parsed yet: its slices wait for their turns
    expect(pausedSearches()).toBe(1);
    await new Promise((resolve) => setImmediate(resolve));
    log.push('other work');
    expect(await parsed).toEqual(parseJsonBytes(body, limits));
    expect(log).toEqual(['other work', 'parsed']);
    expect(pausedSearches()).toBe(0);
  });

  it.each([
    ['not UTF-8', Buffer.concat([Buffer.from(`["${'a'.repeat(2000)}`), Buffer.from([0xc3, 0x28]), Buffer.from('"]')])],
    ['nested too deep', Buffer.from(`${'['.repeat(1500)}${']'.repeat(1500)}`)],
    ['too deep, even with a syntax error before', Buffer.from(`[x,${'['.repeat(1500)}${']'.repeat(1500)}]`)],
    ['a syntax error', Buffer.from(`[${'1,'.repeat(2000)}x]`)],
    ['a number out of range', Buffer.from(`[${'1,'.repeat(2000)}1e999]`)],
    ['a syntax error after a number out of range', Buffer.from(`[1e999,${'1,'.repeat(2000)}x]`)],
  ])('refuses a large body %s with parseJsonBytes\'s error', async (_label, body) => {
    expect(await parse(body, 1024, [])).toEqual(parseJsonBytes(body, limits));
  });
});
