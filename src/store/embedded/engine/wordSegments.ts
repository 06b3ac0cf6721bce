/**
 * Where a long text may be cut into pieces analyzed one at a time (the standard tokenizer's scan
 * and the ASCII fast path of analyzer.ts, the highlighter's budget checked between pieces).
 *
 * A piece may end after an ASCII character of Word_Break class Other or Newline (a space, a newline,
 * `!`, `?`, `(`, `-`, ...: neither a letter, a digit, `_`, nor the `.` `:` `,` `;` `'` `"` that rules
 * WB6-WB7c and WB11-WB12 look across) and before another ASCII character (never an Extend, Format
 * or ZWJ character, which WB4 would attach to what comes before; nor the variation selector or
 * keycap mark of an emoji keycap), except between two spaces (WB3d) and between CR and LF (WB3). No
 * token of Lucene's StandardTokenizer spans such a place, and its scan restarts there as it would
 * after any match, so the tokens of the pieces are those of the whole text.
 *
 * A text with no such place within MAX_SCAN characters of where a piece should end (a long run of
 * ideographs, say): pieceEnd answers -1 and the caller cuts where one of the scanner's matches ends.
 */

/** Characters a piece aims at. */
export const PIECE = 256;
/** How far past PIECE a safe place is looked for. */
export const MAX_SCAN = 1024;

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

/** Where the piece starting at `from` ends (the text's length for the last one), or -1 when no safe place is near. */
export function pieceEnd(text: string, from: number, piece = PIECE, maxScan = MAX_SCAN): number {
  const target = from + piece;
  if (target >= text.length) return text.length;
  const limit = Math.min(text.length, target + maxScan);
  for (let i = target; i < limit; i++) if (safeBreak(text, i)) return i;
  return limit === text.length ? limit : -1;
}
