/**
 * The `standard` analyzer of Elasticsearch: Lucene's StandardTokenizer (analysis/standardTokenizer.ts:
 * UAX #29 word boundaries as Lucene's grammar and tables have them; each Han and Hiragana character
 * its own token, runs of Katakana, Hangul and South-East Asian letters, emoji sequences kept whole,
 * tokens longer than 255 chars cut where Lucene cuts them), then LowerCaseFilter
 * (analysis/lowerCase.ts); one position per token, no stop words (the standard analyzer has none by
 * default). The other named analyzers are in analysis/analyzers.ts.
 *
 * Long texts are analyzed a piece at a time, cut where words always break (wordSegments.ts), so
 * that the highlighter can pause between pieces; within a piece the runs of plain ASCII words take
 * the ASCII scan below (tokenizePiece), the rest the tokenizer's scan: the same tokens, tested
 * against Lucene (analysis/analyzers.lucene.test.ts) and against one scan of the whole text.
 */

import { lowerCase } from './analysis/lowerCase';
import { scanStandard } from './analysis/standardTokenizer';
import { PIECE, pieceEnd, safeBreak } from './wordSegments';

const MAX_TOKEN_LENGTH = 255;

/**
 * ASCII fast path. For ASCII text, UAX #29 joins letters and digits into one word (WB5, WB8-WB10),
 * and every other ASCII character breaks words and is no token, except: `_` (ExtendNumLet,
 * WB13a/b), and `.` `'` `:` (MidNumLet, Single_Quote, MidLetter) and `,` `;` (MidNum) when they
 * stand between two letters or digits (WB6/WB7, WB11/WB12). Text without those cases is tokenized
 * here as its runs of letters and digits (what the tokenizer finds, checked by a property test); any
 * other text goes to the tokenizer.
 */
const CLASS = new Uint8Array(128); // 0: breaks words, 1: letter or digit, 2: upper-case letter, 3: mid punctuation, 4: needs the tokenizer
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  if (/[a-z0-9]/.test(ch)) CLASS[c] = 1;
  else if (/[A-Z]/.test(ch)) CLASS[c] = 2;
  else if (".':,;".includes(ch)) CLASS[c] = 3;
  else if (ch === '_') CLASS[c] = 4;
}

/**
 * Token boundaries: for token i, data[4i] is its start, data[4i + 1] its end, data[4i + 2] 1 when it
 * has upper-case letters, data[4i + 3] the FNV-1a hash of the lower-cased token (see termHash.ts).
 */
export interface TokenBounds {
  data: Int32Array;
  /** FNV-1a of the whole text (not lower-cased), when the scan went to the end. */
  whole: number;
}

const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;

function room(out: TokenBounds, n: number): Int32Array {
  if (4 * n + 4 > out.data.length) {
    const grown = new Int32Array(out.data.length * 2 + 64);
    grown.set(out.data);
    out.data = grown;
  }
  return out.data;
}

/** Records token `n` (its bounds, whether it had upper case, its hash); returns the new count. */
function push(out: TokenBounds, n: number, start: number, end: number, upper: boolean, h: number): number {
  const data = room(out, n);
  data[4 * n] = start;
  data[4 * n + 1] = end;
  data[4 * n + 2] = upper ? 1 : 0;
  data[4 * n + 3] = h;
  return n + 1;
}

/** A token, cut into pieces when longer than MAX_TOKEN_LENGTH (rare: their hashes computed separately). */
function pushToken(text: string, out: TokenBounds, n: number, start: number, end: number, upper: boolean, h: number): number {
  if (end - start <= MAX_TOKEN_LENGTH) return push(out, n, start, end, upper, h);
  for (let s = start; s < end; s += MAX_TOKEN_LENGTH) {
    const e = Math.min(end, s + MAX_TOKEN_LENGTH);
    let piece = FNV_OFFSET;
    for (let i = s; i < e; i++) {
      let c = text.charCodeAt(i);
      if (c >= 65 && c <= 90) c += 32;
      piece = Math.imul(piece ^ c, FNV_PRIME);
    }
    n = push(out, n, s, e, upper, piece);
  }
  return n;
}

const isWordChar = (c: number) => c < 128 && (CLASS[c] === 1 || CLASS[c] === 2);

/**
 * The tokens of ASCII text without word-joining punctuation, as boundaries and hashes (no strings
 * made): returns how many were written to `out`, or -1 when the text needs the tokenizer. Given
 * `from` and `to`, the same for text[from, to) alone.
 */
export function scanAscii(text: string, out: TokenBounds, from = 0, to = text.length): number {
  const n = to;
  let count = 0;
  let start = -1;
  let upper = false;
  let h = FNV_OFFSET;
  let whole = FNV_OFFSET;
  for (let i = from; i < n; i++) {
    let c = text.charCodeAt(i);
    whole = Math.imul(whole ^ c, FNV_PRIME);
    const k = c < 128 ? CLASS[c] : 4;
    if (k === 1 || k === 2) {
      if (start < 0) {
        start = i;
        upper = false;
        h = FNV_OFFSET;
      }
      if (k === 2) {
        upper = true;
        c += 32;
      }
      h = Math.imul(h ^ c, FNV_PRIME);
      continue;
    }
    if (k === 4) return -1;
    if (start >= 0) {
      count = pushToken(text, out, count, start, i, upper, h);
      start = -1;
    }
    if (k === 3 && i > from && i + 1 < n && isWordChar(text.charCodeAt(i - 1)) && isWordChar(text.charCodeAt(i + 1))) return -1;
  }
  if (start >= 0) count = pushToken(text, out, count, start, n, upper, h);
  out.whole = whole;
  return count;
}

const SCRATCH: TokenBounds = { data: new Int32Array(96), whole: 0 };

/** The tokens of ASCII text without word-joining punctuation, or null when the tokenizer is needed. */
export function analyzeAscii(text: string): string[] | null {
  const count = scanAscii(text, SCRATCH);
  if (count < 0) return null;
  const tokens: string[] = [];
  const data = SCRATCH.data;
  for (let i = 0; i < count; i++) {
    const token = text.slice(data[4 * i], data[4 * i + 1]);
    tokens.push(data[4 * i + 2] === 1 ? token.toLowerCase() : token);
  }
  return tokens;
}

/** The tokens of one text value, in order; token i is at position i (relative to the value). */
export function analyzeText(text: string): string[] {
  const fast = analyzeAscii(text);
  if (fast !== null) return fast;
  return segmentText(text);
}

/**
 * Receives a token: text[start, end) lower-cased (`term` null: an ASCII word, lower-cased when
 * `upper`, `hash` its FNV-1a as termHash.ts computes it), or `term` as the tokenizer found it,
 * lower-cased and cut to MAX_TOKEN_LENGTH.
 */
export type TokenSink = (term: string | null, start: number, end: number, upper: boolean, hash: number) => void;

/** The `count` tokens of a scan given to `sink`. */
function scanned(bounds: TokenBounds, count: number, sink: TokenSink): void {
  const data = bounds.data;
  for (let i = 0; i < count; i++) sink(null, data[4 * i], data[4 * i + 1], data[4 * i + 2] === 1, data[4 * i + 3]);
}

/** The standard tokenizer's tokens of text[from, to), lower-cased; with `stopAfter`, up to the first one ending there or after (returns where it stopped). */
function segmentTokens(text: string, from: number, to: number, sink: TokenSink, stopAfter = to): number {
  return scanStandard(
    text,
    from,
    to,
    (_type, start, end) => {
      sink(lowerCase(text.slice(start, end)), start, end, false, 0);
    },
    stopAfter,
  );
}

/**
 * The tokens of the piece of `text` starting at `from` (wordSegments.ts), in order; returns where the
 * piece ends. The piece is cut again where words always break: the runs the ASCII scan can tokenize
 * go its fast way, the others to the tokenizer (together, when they follow each other): text that
 * is mostly plain ASCII with a "don't" or a "café" here and there is mostly scanned.
 */
export function tokenizePiece(text: string, from: number, bounds: TokenBounds, sink: TokenSink): number {
  const to = pieceEnd(text, from);
  // no safe place near: the piece ends where a match of the tokenizer does
  if (to < 0) return segmentTokens(text, from, text.length, sink, from + PIECE);
  const whole = scanAscii(text, bounds, from, to);
  if (whole >= 0) {
    scanned(bounds, whole, sink);
    return to;
  }
  // where text waiting for the tokenizer starts
  let pending = -1;
  for (let a = from; a < to; ) {
    let b = a + 1;
    while (b < to && !safeBreak(text, b)) b++;
    const count = scanAscii(text, bounds, a, b);
    if (count >= 0) {
      if (pending >= 0) {
        segmentTokens(text, pending, a, sink);
        pending = -1;
      }
      scanned(bounds, count, sink);
    } else if (pending < 0) {
      pending = a;
    }
    a = b;
  }
  if (pending >= 0) segmentTokens(text, pending, to, sink);
  return to;
}

/** The tokens of a text, a piece at a time (tokenizePiece). */
export function segmentText(text: string): string[] {
  const tokens: string[] = [];
  const bounds: TokenBounds = { data: new Int32Array(96), whole: 0 };
  const sink: TokenSink = (term, start, end, upper) => {
    if (term !== null) tokens.push(term);
    else tokens.push(upper ? text.slice(start, end).toLowerCase() : text.slice(start, end));
  };
  for (let from = 0; from < text.length; ) from = tokenizePiece(text, from, bounds, sink);
  return tokens;
}

/**
 * Whether the text ends with its last token (the token's end offset is the text's length, as
 * Elasticsearch's MatchQueryParser checks it before making the last term of a bool_prefix query a
 * prefix): "united k" does, "united k " and "united k." do not (the user moved past the word).
 */
export function lastTokenEndsText(text: string): boolean {
  const count = scanAscii(text, SCRATCH);
  if (count >= 0) return count > 0 && SCRATCH.data[4 * (count - 1) + 1] === text.length;
  let end = -1;
  const bounds: TokenBounds = { data: new Int32Array(96), whole: 0 };
  for (let from = 0; from < text.length; ) {
    from = tokenizePiece(text, from, bounds, (_term, _start, tokenEnd) => {
      end = tokenEnd;
    });
  }
  return end === text.length;
}

/** Lowercase a term the way the analyzer does (used by case-insensitive term-level queries). */
export function lowercaseTerm(term: string): string {
  return lowerCase(term);
}
