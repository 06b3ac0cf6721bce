/**
 * Large request bodies parsed a slice at a time, so that a body of a megabyte never holds the event
 * loop: V8's JSON.parse took 25-55 ms on bench:abuse's 570 KB `terms` body (65,000 short strings)
 * on this machine, during which nothing else was answered.
 *
 * A body of more than SLICED_JSON_BYTES is checked and parsed as steps run by the scheduler that
 * runs paused searches (src/scheduler/scheduler.ts), in slices of SEARCH_SLICE_MS: UTF-8 first (one
 * native call), then the nesting scan (64 KiB at a time, noting the spans that JSON.parse parses:
 * JsonSpans), then the parse. The outcome
 * is exactly parseJsonBytes's: the same value (`__proto__` an own property, as JSON.parse makes it),
 * the same 400s, the same first error (V8's messages, positions and context excerpts, checked
 * against JSON.parse by jsonSteps.test.ts), the first number a double cannot hold.
 *
 * Hand-written, on purpose: the incremental JSON parsers on npm either copy entries with
 * Object.assign (@discoveryjs/json-ext's parseChunked: a `__proto__` key would then set the
 * object's prototype) or emit events per token for a stream (@streamparser/json, clarinet), with
 * their own errors; none yields to a scheduler between slices of work, which is what is needed
 * here (the whole body has arrived: it is the CPU, not the bytes, that must be cut).
 */
import { isUtf8 } from 'node:buffer';
import { ApiError } from '../core/errors';
import { Slice, getDefaultSliceMs, runSliced, type Steps } from '../scheduler/scheduler';
import { doubleCannotHold, jsonDepthSteps, notUtf8, numberOutOfRange, outOfRangeNumber, parseJsonBytes, tooDeep, type JsonLimits, type NestingNotes, type ParsedJson } from './jsonText';

/** Bodies above this size (bytes) are parsed in slices; smaller ones by JSON.parse at once (64 KiB: about 4 ms at most). */
export const SLICED_JSON_BYTES = 64 * 1024;

/**
 * Parses request bytes as parseJsonBytes does, calling `done` once: at once for a body of at most
 * `threshold` bytes, else when its last slice has run.
 */
export function parseJsonBytesSliced(bytes: Buffer, limits: JsonLimits, done: (parsed: ParsedJson) => void, threshold = SLICED_JSON_BYTES): void {
  if (bytes.length <= threshold) return done(parseJsonBytes(bytes, limits));
  const slice = new Slice(getDefaultSliceMs());
  let out: ParsedJson | Promise<ParsedJson>;
  try {
    out = runSliced(jsonBytesSteps(bytes, limits, slice), slice);
  } catch (err) {
    out = failure(err);
  }
  if (out instanceof Promise) out.then(done, (err: unknown) => done(failure(err)));
  else done(out);
}

/** (what the steps cannot throw, but a promise must settle) */
const failure = (err: unknown): ParsedJson => ({ ok: false, error: new ApiError('network.http.body_parse_failed', { reason: String((err as Error)?.message ?? err) }) });

/** parseJsonBytes as steps: yields whenever `slice` is over. */
export function* jsonBytesSteps(bytes: Buffer, { maxDepth, wrapping = 0 }: JsonLimits, slice: Slice): Steps<ParsedJson> {
  if (!isUtf8(bytes)) return { ok: false, error: notUtf8() };
  const over = () => slice.over();
  // (decoded first: the nesting scan reads the text, and notes the spans)
  const text = bytes.toString('utf8');
  const spans = yield* jsonSpansSteps(text, maxDepth + wrapping, over);
  if (spans === null) return { ok: false, error: tooDeep(maxDepth) };
  const parsed = yield* parseJsonSteps(text, over, spans);
  if (!parsed.ok) return { ok: false, error: new ApiError('network.http.body_parse_failed', { reason: parsed.message }) };
  if (parsed.outOfRange !== undefined) return { ok: false, error: numberOutOfRange(parsed.outOfRange) };
  return { ok: true, value: parsed.value, text };
}

/**
 * Where JSON.parse does the work: arrays and objects that open at nesting levels 2 and 3 (the
 * entities of a bulk body's array, the items of Kuzzle's `documents`) and span SPAN_MIN_CHARS to
 * SPAN_MAX_CHARS characters, each parsed by one JSON.parse of its text. V8's parser is about three
 * times quicker than the loop of parseJsonSteps (a bulk body of 1,000 bench:scale entities, 268 KB:
 * 1.7 ms instead of 4.8 ms), and a span of at most SPAN_MAX_CHARS keeps each call well within a
 * slice. The spans are found by the nesting scan, which reads every character anyway; they are
 * hints only: a span whose text JSON.parse refuses is parsed by the loop, which words the error.
 */
export interface JsonSpans {
  /** Where each span opens, in increasing order. */
  starts: Int32Array;
  /** Where it closes; -1 for one too long (or never closed), which the loop parses. */
  ends: Int32Array;
  count: number;
}

const SPAN_MIN_LEVEL = 2;
const SPAN_MAX_LEVEL = 3;
/** Smaller containers gain little from a call of their own (and would fill the spans of a body of tiny arrays). */
const SPAN_MIN_CHARS = 32;
const SPAN_MAX_CHARS = 8192;

/** The spans, noted by the nesting scan (jsonDepthSteps). */
class SpanNotes implements JsonSpans, NestingNotes {
  starts: Int32Array = new Int32Array(64);
  ends: Int32Array = new Int32Array(64);
  count = 0;
  /** Per level: the span opened there. */
  private readonly open = new Int32Array(SPAN_MAX_LEVEL + 1);

  opened(depth: number, at: number): void {
    if (depth < SPAN_MIN_LEVEL || depth > SPAN_MAX_LEVEL) return;
    if (this.count === this.starts.length) {
      this.starts = grown(this.starts);
      this.ends = grown(this.ends);
    }
    this.starts[this.count] = at;
    this.ends[this.count] = -1;
    this.open[depth] = this.count++;
  }

  closed(depth: number, at: number): void {
    if (depth < SPAN_MIN_LEVEL || depth > SPAN_MAX_LEVEL) return;
    const k = this.open[depth];
    const chars = at + 1 - this.starts[k];
    if (chars >= SPAN_MIN_CHARS && chars <= SPAN_MAX_CHARS) this.ends[k] = at;
    else if (k === this.count - 1) this.count--; // (none inside it kept: dropped)
  }
}

/** The nesting scan (jsonDepthSteps) noting the spans: null when the text nests deeper than `limit`. */
export function* jsonSpansSteps(text: string, limit: number, over: () => boolean): Generator<void, JsonSpans | null, void> {
  const notes = new SpanNotes();
  return (yield* jsonDepthSteps(text, limit, over, notes)) ? null : notes;
}

const grown = (a: Int32Array): Int32Array => {
  const b = new Int32Array(a.length * 2);
  b.set(a);
  return b;
};

/** V8's shortest sliced string (SlicedString::kMinLength): shorter slices are copies. */
const LONG_STRING = 13;

export type JsonOutcome = { ok: true; value: unknown; outOfRange?: string } | { ok: false; message: string };

/** Values parsed between two looks at the clock. */
const CHECK_EVERY = 1024;

class JsonSyntaxError extends Error {}

/**
 * JSON text to its value, as JSON.parse, yielding whenever `over()` says the slice is over.
 * Iterative (an explicit stack: the caller has bounded the depth). `outOfRange`: the first number
 * token a double cannot hold, if any (the caller refuses the body, as outOfRangeNumber would).
 */
export function* parseJsonSteps(text: string, over: () => boolean, spans?: JsonSpans): Steps<JsonOutcome> {
  const n = text.length;
  let i = 0;
  let outOfRange: string | undefined;
  /** Open arrays and objects, innermost last; for an object, the key its next value goes under. */
  const containers: (unknown[] | Record<string, unknown>)[] = [];
  const keys: string[] = [];

  // --- errors, worded and placed as V8's JsonParser words and places them
  const fail = (message: string): never => {
    throw new JsonSyntaxError(message);
  };
  const at = (message: string, pos: number): never => fail(`${message} in JSON at position ${pos}`);
  /** An unexpected character (or the end) where a value, a key or punctuation was due. */
  const unexpected = (pos: number): never => {
    if (pos >= n) return fail('Unexpected end of JSON input');
    const c = text.charCodeAt(pos);
    if (c === 0x22) return at('Unexpected string', pos);
    if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return at('Unexpected number', pos);
    const token = text[pos];
    const CONTEXT = 10;
    if (n <= 2 * CONTEXT) return fail(`Unexpected token '${token}', "${text}" is not valid JSON`);
    if (pos < CONTEXT) return fail(`Unexpected token '${token}', "${text.slice(0, pos + CONTEXT)}"... is not valid JSON`);
    if (pos < n - CONTEXT) return fail(`Unexpected token '${token}', ..."${text.slice(pos - CONTEXT, pos + CONTEXT)}"... is not valid JSON`);
    return fail(`Unexpected token '${token}', ..."${text.slice(pos - CONTEXT)}" is not valid JSON`);
  };
  const skipSpace = (from: number): number => {
    let p = from;
    for (; p < n; p++) {
      const c = text.charCodeAt(p);
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) break;
    }
    return p;
  };

  /** The string whose opening quote is at `i`; `i` moves past its closing quote. */
  const readString = (): string => {
    const start = i + 1;
    let escaped = false;
    let p = start;
    for (;;) {
      if (p >= n) return at('Unterminated string', n);
      const c = text.charCodeAt(p);
      if (c === 0x22) break;
      if (c < 0x20) return at('Bad control character in string literal', p);
      if (c === 0x5c) {
        escaped = true;
        p++;
        if (p >= n) return unexpected(n);
        const e = text.charCodeAt(p);
        // (V8's JsonParser::ScanJsonString: an escaped character beyond Latin-1 is an unexpected token, not a bad escape)
        if (e > 0xff) return unexpected(p);
        if (e === 0x75) {
          // \uXXXX
          for (let k = 1; k <= 4; k++) {
            const h = p + k < n ? text.charCodeAt(p + k) : -1;
            if (!((h >= 0x30 && h <= 0x39) || (h >= 0x41 && h <= 0x46) || (h >= 0x61 && h <= 0x66))) return at('Bad Unicode escape', Math.min(p + k, n));
          }
          p += 4;
        } else if (!(e === 0x22 || e === 0x5c || e === 0x2f || e === 0x62 || e === 0x66 || e === 0x6e || e === 0x72 || e === 0x74)) {
          return at('Bad escaped character', p);
        }
      }
      p++;
    }
    i = p + 1;
    // escapes checked above: JSON.parse of the string alone decodes them as it would in the whole text.
    // A string of LONG_STRING characters or more is made by JSON.parse too, a copy of its own: V8 makes
    // longer slices views into the text they come from, so one value kept for good (a keyword term in
    // an index, an id) would keep the whole body alive (bench:scale: 275 KB for each bulk request of
    // 1,000 entities, 290 MB of the memory held after loading a million).
    return escaped || p - start >= LONG_STRING ? (JSON.parse(text.slice(start - 1, p + 1)) as string) : text.slice(start, p);
  };

  /** The number starting at `i` (a `-` or a digit); `i` moves past it. */
  const readNumber = (): number => {
    const start = i;
    let p = i;
    if (text.charCodeAt(p) === 0x2d) {
      p++;
      const d = p < n ? text.charCodeAt(p) : -1;
      if (!(d >= 0x30 && d <= 0x39)) return at('No number after minus sign', p);
    }
    if (text.charCodeAt(p) === 0x30) {
      p++;
      const d = p < n ? text.charCodeAt(p) : -1;
      if (d >= 0x30 && d <= 0x39) return unexpected(p);
    } else {
      while (p < n && isDigit(text.charCodeAt(p))) p++;
    }
    if (p < n && text.charCodeAt(p) === 0x2e) {
      p++;
      if (!(p < n && isDigit(text.charCodeAt(p)))) return at('Unterminated fractional number', p);
      while (p < n && isDigit(text.charCodeAt(p))) p++;
    }
    if (p < n && (text.charCodeAt(p) | 0x20) === 0x65) {
      p++;
      if (p < n && (text.charCodeAt(p) === 0x2b || text.charCodeAt(p) === 0x2d)) p++;
      if (!(p < n && isDigit(text.charCodeAt(p)))) return at('Exponent part is missing a number', p);
      while (p < n && isDigit(text.charCodeAt(p))) p++;
    }
    i = p;
    const token = text.slice(start, p);
    const value = Number(token);
    if (outOfRange === undefined && doubleCannotHold(token, value)) outOfRange = token;
    return value;
  };

  const readLiteral = (word: string, value: unknown): unknown => {
    for (let k = 0; k < word.length; k++) if (i + k >= n || text.charCodeAt(i + k) !== word.charCodeAt(k)) return unexpected(i + k);
    i += word.length;
    return value;
  };

  /**
   * The key of an object's next entry at `i` (after `{` or `,`), its colon and the space after it.
   * `first`: the object's first key, which V8 words its errors for.
   */
  const readKey = (first: boolean): string => {
    if (i >= n || text.charCodeAt(i) !== 0x22) return at(first ? "Expected property name or '}'" : 'Expected double-quoted property name', i);
    const key = readString();
    i = skipSpace(i);
    if (i >= n || text.charCodeAt(i) !== 0x3a) return first ? at("Expected ':' after property name", i) : unexpected(i);
    i = skipSpace(i + 1);
    return key;
  };

  // --- spans (JsonSpans): the container at `at` parsed by JSON.parse when it is one
  let span = 0;
  /** Whether the text holds a number out of range at all (outOfRangeNumber of the whole text, at the first span: most texts fail its regular expression at once), so that spans are looked at only then. */
  let mayOverflow: boolean | undefined;
  let spanValue: unknown;
  /** The span opening at `at` parsed into spanValue: where it ends, or -1 (no span there, or one JSON.parse refuses). */
  const parseSpan = (at: number): number => {
    const { starts, ends, count } = spans as JsonSpans;
    while (span < count && starts[span] < at) span++;
    if (span === count || starts[span] !== at || ends[span] < 0) return -1;
    const end = ends[span];
    const json = text.slice(at, end + 1);
    try {
      spanValue = JSON.parse(json);
    } catch {
      return -1;
    }
    if (outOfRange === undefined && (mayOverflow ??= outOfRangeNumber(text) !== undefined)) outOfRange = outOfRangeNumber(json);
    return end;
  };

  try {
    let count = 0;
    i = skipSpace(0);
    for (;;) {
      if (++count >= CHECK_EVERY) {
        count = 0;
        if (over()) yield;
      }
      // a value starts at i
      let value: unknown;
      const c = i < n ? text.charCodeAt(i) : -1;
      let end: number;
      if ((c === 0x7b || c === 0x5b) && spans !== undefined && (end = parseSpan(i)) >= 0) {
        value = spanValue;
        count += (end - i) >> 4; // (about a value per 16 characters)
        i = end + 1;
      } else if (c === 0x7b) {
        i = skipSpace(i + 1);
        if (i < n && text.charCodeAt(i) === 0x7d) {
          i++;
          value = {};
        } else {
          keys.push(readKey(true));
          containers.push({});
          continue;
        }
      } else if (c === 0x5b) {
        i = skipSpace(i + 1);
        if (i < n && text.charCodeAt(i) === 0x5d) {
          i++;
          value = [];
        } else {
          containers.push([]);
          keys.push('');
          continue;
        }
      } else if (c === 0x22) {
        value = readString();
      } else if (c === 0x2d || isDigit(c)) {
        value = readNumber();
      } else if (c === 0x74) {
        value = readLiteral('true', true);
      } else if (c === 0x66) {
        value = readLiteral('false', false);
      } else if (c === 0x6e) {
        value = readLiteral('null', null);
      } else {
        unexpected(i);
      }
      // the value is complete: into its container, closing those that end after it
      for (;;) {
        const depth = containers.length;
        if (depth === 0) {
          i = skipSpace(i);
          if (i < n) fail(`Unexpected non-whitespace character after JSON at position ${i}`);
          return { ok: true, value, outOfRange };
        }
        const container = containers[depth - 1];
        const isArray = Array.isArray(container);
        if (isArray) container.push(value);
        else setEntry(container, keys[depth - 1], value);
        i = skipSpace(i);
        const next = i < n ? text.charCodeAt(i) : -1;
        if (next === 0x2c) {
          i = skipSpace(i + 1);
          if (!isArray) keys[depth - 1] = readKey(false);
          break;
        }
        if (next !== (isArray ? 0x5d : 0x7d)) at(isArray ? "Expected ',' or ']' after array element" : "Expected ',' or '}' after property value", i);
        i++;
        value = containers.pop();
        keys.pop();
      }
    }
  } catch (err) {
    if (err instanceof JsonSyntaxError) return { ok: false, message: err.message };
    throw err;
  }
}

const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;

/** As JSON.parse defines an entry: `__proto__` too is an own property, never the prototype. */
function setEntry(object: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
  else object[key] = value;
}
