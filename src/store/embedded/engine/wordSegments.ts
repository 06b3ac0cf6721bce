/**
 * Intl.Segmenter's word segmentation of a long text, a piece at a time.
 *
 * V8's segment iterator (Node 20) spends time proportional to the length of the text it was given on
 * every segment it returns, so one pass over a text of n characters costs O(n²): measured, 160,000
 * characters of ordinary text (with an apostrophe, so not the analyzer's ASCII path) took 34 s in one
 * call, 0.05 s cut in pieces of about 256 characters. The text is therefore cut into pieces where
 * UAX #29 breaks words whatever comes before and after, and each piece is segmented alone: the
 * segments are those of the whole text.
 *
 * Where a piece may end: after an ASCII character of Word_Break class Other or Newline (a space, a
 * newline, `!`, `?`, `(`, `-`, ...: neither a letter, a digit, `_`, nor the `.` `:` `,` `;` `'` `"`
 * that rules WB6-WB7c and WB11-WB12 look across) and before another ASCII character (never an
 * Extend, Format or ZWJ character, which WB4 would attach to what comes before), except between two
 * spaces (WB3d) and between CR and LF (WB3). No rule then keeps the two characters in one segment,
 * and none looks further: ICU's dictionary segmentation (CJK, Thai...) works on runs of letters that
 * such a character ends.
 *
 * A text with no such place within MAX_SCAN characters of where a piece should end (a very long run
 * of ideographs, say) is cut at the start of the last segment ICU finds in a window of that length
 * (a word longer than the window, at its end).
 * Only there may the segments differ from one pass over the whole text; the index and the highlighter
 * both analyze through here, so they agree with each other.
 */

/** Characters a piece aims at. */
export const PIECE = 256;
/** How far past PIECE a safe place is looked for before a forced cut. */
export const MAX_SCAN = 1024;

export const wordSegmenter = new Intl.Segmenter('en', { granularity: 'word' });

/** ASCII characters after which words always break (see above), 1; a space, 2 (not before another space); CR, 3 (not before LF). */
const SAFE_LEFT = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  if (/[A-Za-z0-9_.:,;'"]/.test(ch)) continue;
  SAFE_LEFT[c] = c === 0x20 ? 2 : c === 0x0d ? 3 : 1;
}

/** Whether words always break between text[i - 1] and text[i]. */
export function safeBreak(text: string, i: number): boolean {
  const left = text.charCodeAt(i - 1);
  const right = text.charCodeAt(i);
  if (left >= 128 || right >= 128) return false;
  const kind = SAFE_LEFT[left];
  return kind === 1 || (kind === 2 && right !== 0x20) || (kind === 3 && right !== 0x0a);
}

/** Where the piece starting at `from` ends (the text's length for the last one). */
export function pieceEnd(text: string, from: number, piece = PIECE, maxScan = MAX_SCAN): number {
  const target = from + piece;
  if (target >= text.length) return text.length;
  const limit = Math.min(text.length, target + maxScan);
  for (let i = target; i < limit; i++) if (safeBreak(text, i)) return i;
  if (limit === text.length) return limit;
  // no safe place: the start of the last segment ICU finds in the window, a few characters before its
  // end (the rules look at most two characters ahead)
  let last = from;
  for (const { index } of wordSegmenter.segment(text.slice(from, limit))) if (from + index <= limit - 3) last = from + index;
  if (last > from) return last;
  // one segment over the whole window: cut it, never inside a surrogate pair
  const code = text.charCodeAt(limit);
  return code >= 0xdc00 && code <= 0xdfff ? limit + 1 : limit;
}

/**
 * The word-like segments of text[from, pieceEnd(from)) with their offsets in the whole text: `visit`
 * is called for each; returns where the piece ended (the next piece's start).
 */
export function segmentPiece(text: string, from: number, visit: (segment: string, index: number) => void, piece = PIECE, maxScan = MAX_SCAN): number {
  const to = pieceEnd(text, from, piece, maxScan);
  const part = from === 0 && to === text.length ? text : text.slice(from, to);
  for (const { segment, index, isWordLike } of wordSegmenter.segment(part)) if (isWordLike) visit(segment, from + index);
  return to;
}

/** Every word-like segment of a text, in order, with its offset. */
export function eachWordSegment(text: string, visit: (segment: string, index: number) => void): void {
  for (let from = 0; from < text.length; ) from = segmentPiece(text, from, visit);
}
