/**
 * Request JSON as every way in reads it (REST bodies, raw WebSocket messages, GraphQL bodies):
 * UTF-8 only, nested at most MAX_JSON_DEPTH levels, numbers a double can hold. Each failure is a
 * catalogue error (400), never an exception: the request is refused before anything that recurses
 * (JSON.stringify, the query parsers, graphql-js) sees it.
 *
 * The depth scans are written by hand, on purpose: V8's JSON.parse is iterative and accepts any
 * depth (Node offers no limit), walking the parsed value would first build it whatever its depth,
 * and no JSON library in the dependencies exposes a nesting limit (Jackson's, which Elasticsearch
 * applies, is StreamReadConstraints.maxNestingDepth). A loop over the text that skips strings and
 * counts brackets allocates nothing, cannot recurse, and stops at the first level over the limit.
 */
import { isUtf8 } from 'node:buffer';
import { ApiError } from '../core/errors';

/** Jackson's default nesting limit, which Elasticsearch applies to every request body (MAX_JSON_DEPTH). */
export const DEFAULT_MAX_JSON_DEPTH = 1000;

/**
 * GraphQL documents are parsed by graphql-js, whose parser recurses (an object literal about
 * 1,500 levels deep exhausts Node's default stack): whatever MAX_JSON_DEPTH says, a document never
 * nests deeper than this.
 */
export const MAX_GRAPHQL_DOCUMENT_DEPTH = 1000;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

/**
 * Whether JSON text nests arrays and objects deeper than `limit` (the outermost one is level 1).
 * Brackets, quotes and backslashes are ASCII, and no other character's code unit equals one.
 */
export function jsonTextDepthExceeds(text: string, limit: number): boolean {
  if (text.length <= limit) return false; // every level takes at least one character
  const steps = jsonDepthSteps(text, limit, never);
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

const never = () => false;
/** Characters scanned between two looks at the clock (a power of two). */
const SCAN_CHUNK = 1 << 16;

/** Told of each array and object the nesting scan passes (the sliced parse's spans: slicedJson.ts). */
export interface NestingNotes {
  /** The container opening at `at` is at level `depth` (the outermost: 1). */
  opened(depth: number, at: number): void;
  /** The container of level `depth` closes at `at`. */
  closed(depth: number, at: number): void;
}

/**
 * Where the JSON string opening at `open` ends: its closing quote (text.length when there is none).
 * The next quote is found by indexOf (the engine's search, several times quicker than a loop over
 * every character of a bulk body's text, most of which is strings); it closes the string when an
 * even number of backslashes comes before it (each pair an escaped backslash; an odd one escapes it).
 */
function stringEnd(text: string, open: number): number {
  for (let from = open + 1; ; ) {
    const quote = text.indexOf('"', from);
    if (quote < 0) return text.length;
    let slashes = 0;
    while (text.charCodeAt(quote - 1 - slashes) === BACKSLASH) slashes++;
    if ((slashes & 1) === 0) return quote;
    from = quote + 1;
  }
}

/** The same scan, pausing (yielding) every 64 Ki characters once `over()` says its slice is over; `notes` told of every container. */
export function* jsonDepthSteps(text: string, limit: number, over: () => boolean, notes?: NestingNotes): Generator<void, boolean, void> {
  const n = text.length;
  let depth = 0;
  let next = SCAN_CHUNK;
  for (let i = 0; i < n; i++) {
    if (i >= next) {
      next = i + SCAN_CHUNK;
      if (over()) yield;
    }
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = stringEnd(text, i);
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > limit) return true;
      notes?.opened(depth, i);
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      notes?.closed(depth, i);
      depth--;
    }
  }
  return false;
}

/**
 * Whether a GraphQL document nests deeper than `limit`: selection sets, argument and variable
 * lists, and list and object literals all count (graphql-js's parser recurses into each). Strings,
 * block strings and comments are skipped.
 */
export function graphqlDepthExceeds(text: string, limit: number): boolean {
  const n = text.length;
  if (n <= limit) return false;
  let depth = 0;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      if (text.charCodeAt(i + 1) === QUOTE && text.charCodeAt(i + 2) === QUOTE) {
        // a block string: up to the next """ that is not escaped (\""")
        for (i += 3; i < n; i++) {
          const s = text.charCodeAt(i);
          if (s === BACKSLASH && text.startsWith('"""', i + 1)) i += 3;
          else if (s === QUOTE && text.charCodeAt(i + 1) === QUOTE && text.charCodeAt(i + 2) === QUOTE) {
            i += 2;
            break;
          }
        }
      } else {
        for (i++; i < n; i++) {
          const s = text.charCodeAt(i);
          if (s === BACKSLASH) i++;
          else if (s === QUOTE || s === 0x0a || s === 0x0d) break; // (a string ends at its line)
        }
      }
    } else if (c === 0x23) {
      // # comment, to the end of its line
      while (i + 1 < n && text.charCodeAt(i + 1) !== 0x0a && text.charCodeAt(i + 1) !== 0x0d) i++;
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT || c === 0x28) {
      if (++depth > limit) return true;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT || c === 0x29) {
      depth--;
    }
  }
  return false;
}

/**
 * Numbers that cannot be out of range are the rule: a JSON number overflows a double or underflows
 * to zero only with an exponent of three digits or more, or with a run of about 200 digits
 * (1.8e308 written without exponent, or 2.5e-324 as 0.000…). Text that has neither is not scanned.
 */
const MAYBE_OUT_OF_RANGE = /\d[eE][+-]?\d{3}|\d{200}/;

/**
 * The first number of valid JSON text that a double cannot hold: one that overflows (1e999,
 * -1e999: JSON.parse makes it ±Infinity, which JSON.stringify then writes as null) or a non-zero
 * one that underflows to zero (1e-999). Undefined when there is none.
 */
export function outOfRangeNumber(text: string): string | undefined {
  if (!MAYBE_OUT_OF_RANGE.test(text)) return undefined;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      for (i++; i < n; i++) {
        const s = text.charCodeAt(i);
        if (s === BACKSLASH) i++;
        else if (s === QUOTE) break;
      }
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      let end = i + 1;
      while (end < n && isNumberChar(text.charCodeAt(end))) end++;
      const token = text.slice(i, end);
      if (doubleCannotHold(token, Number(token))) return token;
      i = end - 1;
    }
  }
  return undefined;
}

/** A JSON number token that overflows a double (±Infinity) or underflows to zero though not zero. */
export const doubleCannotHold = (token: string, value: number): boolean => !Number.isFinite(value) || (value === 0 && /[1-9]/.test(token.split(/[eE]/)[0]));

const isNumberChar = (c: number) => (c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x65 || c === 0x45 || c === 0x2b || c === 0x2d;

const shorten = (token: string) => (token.length > 40 ? `${token.slice(0, 20)}…${token.slice(-10)}` : token);

export const tooDeep = (limit: number) => new ApiError('api.assert.body_too_deep', { limit });

export const numberOutOfRange = (token: string) =>
  new ApiError('network.http.body_parse_failed', { reason: `the number ${shorten(token)} is out of the range of a double (about ±1.8e308, non-zero values above 4.9e-324 in magnitude)` });

export const notUtf8 = () => new ApiError('network.http.body_parse_failed', { reason: 'the request is not valid UTF-8' });

export interface JsonLimits {
  /** Deepest nesting allowed (MAX_JSON_DEPTH), counted from the request's own value. */
  maxDepth: number;
  /**
   * Levels of the way in's own wrapping, allowed on top of maxDepth: 1 for a raw WebSocket message
   * (its fields are the request's values), 2 for a GraphQL body (`{variables: {name: value}}`).
   */
  wrapping?: number;
}

export type ParsedJson = { ok: true; value: unknown; text: string } | { ok: false; error: ApiError };

/**
 * Request bytes to a JSON value: UTF-8 (never a silent U+FFFD), not nested deeper than the limit,
 * valid JSON, every number a double can hold. `text` is the decoded text.
 */
export function parseJsonBytes(bytes: Buffer, { maxDepth, wrapping = 0 }: JsonLimits): ParsedJson {
  if (!isUtf8(bytes)) return { ok: false, error: notUtf8() };
  const text = bytes.toString('utf8');
  if (jsonTextDepthExceeds(text, maxDepth + wrapping)) return { ok: false, error: tooDeep(maxDepth) };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { ok: false, error: new ApiError('network.http.body_parse_failed', { reason: (err as Error).message }) };
  }
  const number = outOfRangeNumber(text);
  if (number !== undefined) return { ok: false, error: numberOutOfRange(number) };
  return { ok: true, value, text };
}

/**
 * The same limits on a value that arrives already parsed (graphql-ws variables): its depth, and no
 * non-finite number (an overflowing literal is parsed to ±Infinity). Iterative.
 */
export function checkJsonValue(value: unknown, { maxDepth, wrapping = 0 }: JsonLimits): ApiError | undefined {
  const limit = maxDepth + wrapping;
  const stack: unknown[] = [value];
  const depths: number[] = [0];
  while (stack.length > 0) {
    const item = stack.pop();
    const depth = depths.pop() as number;
    if (typeof item === 'number') {
      if (!Number.isFinite(item)) return numberOutOfRange(String(item));
    } else if (typeof item === 'object' && item !== null) {
      if (depth + 1 > limit) return tooDeep(maxDepth);
      const children = Array.isArray(item) ? item : Object.values(item);
      for (const child of children) {
        if (typeof child === 'object' || typeof child === 'number') {
          stack.push(child);
          depths.push(depth + 1);
        }
      }
    }
  }
  return undefined;
}
