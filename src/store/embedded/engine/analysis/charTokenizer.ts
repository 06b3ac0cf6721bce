/**
 * Lucene's CharTokenizer: tokens are the runs of code points a predicate accepts, cut every
 * max_token_length (255) chars (a token ends once it holds 255 chars or more: a supplementary
 * character may take it to 256). Two of them:
 * - LetterTokenizer (the `simple` analyzer): letters, Java's Character.isLetter (general categories
 *   Lu, Ll, Lt, Lm, Lo: \p{L});
 * - WhitespaceTokenizer (`whitespace`): anything but Java's Character.isWhitespace (space, line and
 *   paragraph separators other than the no-break spaces U+00A0, U+2007, U+202F; tab, line feed,
 *   U+000B, form feed, carriage return, U+001C to U+001F).
 * Unicode versions: V8's tables may know letters assigned after the JDK's.
 */

export const MAX_TOKEN_LENGTH = 255;

const LETTER = /\p{L}/u;
const WHITESPACE = /^[\t\n\u000B\f\r\u001C-\u001F\p{Zl}\p{Zp}\p{Zs}]$/u;
const NO_BREAK = new Set([0xa0, 0x2007, 0x202f]);

export const isLetter = (cp: number): boolean => (cp < 128 ? (cp >= 65 && cp <= 90) || (cp >= 97 && cp <= 122) : LETTER.test(String.fromCodePoint(cp)));

export const isWhitespace = (cp: number): boolean => !NO_BREAK.has(cp) && WHITESPACE.test(String.fromCodePoint(cp));

/** Receives a token's offsets; false stops the scan. */
export type CharSink = (start: number, end: number) => boolean | void;

/** The runs of code points of `text` that `isTokenChar` accepts, as CharTokenizer cuts them. */
export function scanChars(text: string, isTokenChar: (cp: number) => boolean, sink: CharSink): void {
  let start = -1;
  let i = 0;
  while (i < text.length) {
    const cp = text.codePointAt(i) as number;
    const size = cp > 0xffff ? 2 : 1;
    if (isTokenChar(cp)) {
      if (start < 0) start = i;
      i += size;
      if (i - start >= MAX_TOKEN_LENGTH) {
        if (sink(start, i) === false) return;
        start = -1;
      }
      continue;
    }
    if (start >= 0) {
      if (sink(start, i) === false) return;
      start = -1;
    }
    i += size;
  }
  if (start >= 0) sink(start, text.length);
}
