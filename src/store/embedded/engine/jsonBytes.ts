/**
 * JSON data written as UTF-8 JSON text straight into a byte buffer, in one pass (no intermediate
 * string): what JSON.parse reads back is a deep copy of the value. Returns -1 (nothing usable
 * written) for anything JSON text cannot carry exactly: -0, undefined, non-finite numbers, array
 * holes or extra array properties, inherited enumerable keys, objects with toJSON, functions,
 * symbols, bigints, nesting deeper than MAX_DEPTH; -2 when the buffer is too small.
 */

const MAX_DEPTH = 64;
const HEX = '0123456789abcdef';

/**
 * Longer strings of printable ASCII without `"` or `\\` (nearly all text) are checked by one regular
 * expression and copied by the platform's Latin-1 writer (one byte per code unit, exact for ASCII),
 * not code unit by code unit.
 */
const PLAIN_ASCII = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;
const NATIVE_COPY_MIN = 24;
const latin1Write = Buffer.prototype.latin1Write as (this: Uint8Array, s: string, offset: number) => number;

/** UTF-8 bytes of object keys, which repeat from one document to the next. */
const keyBytes = new Map<string, Uint8Array>();
const encoder = new TextEncoder();

/** A writer over one buffer; `at` is the next free byte; `full` when it ran out of room. */
class Writer {
  at = 0;
  full = false;
  constructor(
    readonly out: Uint8Array,
    readonly end: number,
  ) {}

  private noRoom(): boolean {
    this.full = true;
    return false;
  }

  byte(b: number): boolean {
    if (this.at >= this.end) return this.noRoom();
    this.out[this.at++] = b;
    return true;
  }

  /** A JSON string literal (quotes included), escaped as JSON requires, lone surrogates as \\uXXXX. */
  string(s: string): boolean {
    const out = this.out;
    // worst case 6 bytes per code unit (\\uXXXX) plus the quotes
    if (this.at + 6 * s.length + 2 > this.end) return this.stringSlow(s);
    let at = this.at;
    out[at++] = 34;
    if (s.length >= NATIVE_COPY_MIN && PLAIN_ASCII.test(s)) {
      at += latin1Write.call(out, s, at);
      out[at++] = 34;
      this.at = at;
      return true;
    }
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c < 0x80) {
        if (c >= 0x20 && c !== 34 && c !== 92) {
          out[at++] = c;
        } else {
          at = escapeAscii(out, at, c);
        }
      } else if (c < 0x800) {
        out[at++] = 0xc0 | (c >> 6);
        out[at++] = 0x80 | (c & 0x3f);
      } else if (c >= 0xd800 && c <= 0xdfff) {
        const next = i + 1 < s.length ? s.charCodeAt(i + 1) : 0;
        if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
          const cp = 0x10000 + ((c - 0xd800) << 10) + (next - 0xdc00);
          out[at++] = 0xf0 | (cp >> 18);
          out[at++] = 0x80 | ((cp >> 12) & 0x3f);
          out[at++] = 0x80 | ((cp >> 6) & 0x3f);
          out[at++] = 0x80 | (cp & 0x3f);
          i++;
        } else {
          at = escapeUnit(out, at, c); // a lone surrogate
        }
      } else {
        out[at++] = 0xe0 | (c >> 12);
        out[at++] = 0x80 | ((c >> 6) & 0x3f);
        out[at++] = 0x80 | (c & 0x3f);
      }
    }
    out[at++] = 34;
    this.at = at;
    return true;
  }

  /** The same near the end of the buffer: through a temporary, checking room. */
  private stringSlow(s: string): boolean {
    const bytes = encoder.encode(JSON.stringify(s)); // well-formed: lone surrogates escaped
    if (this.at + bytes.length > this.end) return this.noRoom();
    this.out.set(bytes, this.at);
    this.at += bytes.length;
    return true;
  }

  ascii(s: string): boolean {
    if (this.at + s.length > this.end) return this.noRoom();
    for (let i = 0; i < s.length; i++) this.out[this.at++] = s.charCodeAt(i);
    return true;
  }

  key(k: string): boolean {
    let bytes = keyBytes.get(k);
    if (bytes === undefined) {
      bytes = encoder.encode(JSON.stringify(k) + ':');
      if (keyBytes.size < 10000) keyBytes.set(k, bytes);
    }
    if (this.at + bytes.length > this.end) return this.noRoom();
    this.out.set(bytes, this.at);
    this.at += bytes.length;
    return true;
  }
}

function escapeAscii(out: Uint8Array, at: number, c: number): number {
  out[at++] = 92;
  switch (c) {
    case 34:
      out[at++] = 34;
      return at;
    case 92:
      out[at++] = 92;
      return at;
    case 8:
      out[at++] = 98; // \b
      return at;
    case 12:
      out[at++] = 102; // \f
      return at;
    case 10:
      out[at++] = 110; // \n
      return at;
    case 13:
      out[at++] = 114; // \r
      return at;
    case 9:
      out[at++] = 116; // \t
      return at;
    default:
      return escapeUnit(out, at - 1, c);
  }
}

function escapeUnit(out: Uint8Array, at: number, c: number): number {
  out[at++] = 92;
  out[at++] = 117; // u
  for (let shift = 12; shift >= 0; shift -= 4) out[at++] = HEX.charCodeAt((c >> shift) & 15);
  return at;
}

function write(w: Writer, value: unknown, depth: number): boolean {
  switch (typeof value) {
    case 'string':
      return w.string(value);
    case 'boolean':
      return w.ascii(value ? 'true' : 'false');
    case 'number':
      if (!Number.isFinite(value) || Object.is(value, -0)) return false;
      return w.ascii(String(value));
    case 'object': {
      if (value === null) return w.ascii('null');
      if (depth >= MAX_DEPTH) return false;
      if (Array.isArray(value)) {
        if (!w.byte(91)) return false;
        for (let i = 0; i < value.length; i++) {
          if (!(i in value)) return false;
          if (i > 0 && !w.byte(44)) return false;
          if (!write(w, value[i], depth + 1)) return false;
        }
        if (Object.keys(value).length !== value.length) return false;
        return w.byte(93);
      }
      if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return false;
      const obj = value as Record<string, unknown>;
      if (!w.byte(123)) return false;
      let first = true;
      for (const key in obj) {
        if (!Object.prototype.hasOwnProperty.call(obj, key)) return false;
        if (!first && !w.byte(44)) return false;
        first = false;
        if (!w.key(key) || !write(w, obj[key], depth + 1)) return false;
      }
      return w.byte(125);
    }
    default:
      return false;
  }
}

/**
 * Whether writeJson could write `value` (it is not NOT_JSON for it): then JSON.stringify(value) is
 * text JSON.parse reads back as a deep copy of it too, and a caller holding that text already may
 * keep it instead (SourceStore.put). The same checks as `write`, in the same order, writing nothing.
 */
export function isExactJson(value: unknown, depth = 0): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value) && !Object.is(value, -0);
    case 'object': {
      if (value === null) return true;
      if (depth >= MAX_DEPTH) return false;
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) if (!(i in value) || !isExactJson(value[i], depth + 1)) return false;
        return Object.keys(value).length === value.length;
      }
      if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return false;
      const obj = value as Record<string, unknown>;
      for (const key in obj) if (!Object.prototype.hasOwnProperty.call(obj, key) || !isExactJson(obj[key], depth + 1)) return false;
      return true;
    }
    default:
      return false;
  }
}

export const NOT_JSON = -1;
export const NO_ROOM = -2;

/** Write `value` as JSON into out[at, end); returns the end of what was written, NOT_JSON (see above) or NO_ROOM. */
export function writeJson(value: unknown, out: Uint8Array, at: number, end = out.length): number {
  const w = new Writer(out, end);
  w.at = at;
  if (write(w, value, 0)) return w.at;
  return w.full ? NO_ROOM : NOT_JSON;
}
