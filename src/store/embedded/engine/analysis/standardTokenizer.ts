/**
 * Lucene's StandardTokenizer (UAX #29 word boundaries), as Lucene 8 runs it: the JFlex scanner
 * StandardTokenizerImpl, its tables read from Lucene's own jar (standardTokenizerTables.ts, generated:
 * the character classes come from the Unicode data Lucene's grammar was built with, so a character
 * V8 knows and that Unicode version did not is classed as Lucene classes it), run here by the same
 * longest-match loop as JFlex's getNextToken. Written by hand because no npm package implements
 * Lucene's grammar (UAX #29 plus its token types: Han and Hiragana one character per token, runs of
 * Katakana, Hangul, South-East Asian letters, emoji sequences); Intl.Segmenter follows ICU's
 * dictionaries instead.
 *
 * Token types (StandardTokenizer.TOKEN_TYPES): <ALPHANUM>, <NUM>, <SOUTHEAST_ASIAN>, <IDEOGRAPHIC>,
 * <HIRAGANA>, <KATAKANA>, <HANGUL>, <EMOJI>. Everything else (spaces, punctuation, symbols) is skipped.
 *
 * max_token_length (255): Lucene sets the scanner's buffer to that many chars and a token cannot
 * outgrow its buffer, so a longer word is cut where the buffer ends and the scan starts again there
 * (one char less when the buffer's last char is a high surrogate: JFlex keeps it for the next read).
 * The scan is linear: each match reads at most max_token_length chars past its end.
 */
import { ACTION, ATTRIBUTE, CLASSES, CLASS_OF_RUN, RUN_START, TRANSITION } from './standardTokenizerTables';

export const TOKEN_TYPES = ['<ALPHANUM>', '<NUM>', '<SOUTHEAST_ASIAN>', '<IDEOGRAPHIC>', '<HIRAGANA>', '<KATAKANA>', '<HANGUL>', '<EMOJI>'] as const;
export const ALPHANUM = 0;
export const NUM = 1;
export const SOUTHEAST_ASIAN = 2;
export const IDEOGRAPHIC = 3;
export const HIRAGANA = 4;
export const KATAKANA = 5;
export const HANGUL = 6;
export const EMOJI = 7;

/** StandardAnalyzer.DEFAULT_MAX_TOKEN_LENGTH. */
export const MAX_TOKEN_LENGTH = 255;

/** What each rule returns (the switch of StandardTokenizerImpl.getNextToken): a token type, or -1 (skip). */
const RULE_TYPE = [-1, -1, EMOJI, ALPHANUM, HANGUL, NUM, KATAKANA, IDEOGRAPHIC, HIRAGANA, SOUTHEAST_ASIAN];

/** The class of every BMP code unit, and of the supplementary code points by binary search over the runs. */
const BMP = new Uint8Array(0x10000);
for (let r = 0; r < RUN_START.length && RUN_START[r] < 0x10000; r++) {
  const end = r + 1 < RUN_START.length ? Math.min(RUN_START[r + 1], 0x10000) : 0x10000;
  BMP.fill(CLASS_OF_RUN[r], RUN_START[r], end);
}
const FIRST_SUPPLEMENTARY_RUN = RUN_START.findIndex((start) => start >= 0x10000);

function classOf(cp: number): number {
  if (cp < 0x10000) return BMP[cp];
  let lo = FIRST_SUPPLEMENTARY_RUN - 1;
  let hi = RUN_START.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (RUN_START[mid] <= cp) lo = mid;
    else hi = mid - 1;
  }
  return CLASS_OF_RUN[lo];
}

const TRANSITIONS = Int8Array.from(TRANSITION);

/** Receives a token: its type (an index into TOKEN_TYPES) and its offsets; false stops the scan. */
export type StandardSink = (type: number, start: number, end: number) => boolean | void;

/**
 * The tokens of text[from, to) given to `sink`, in order, as the scanner finds them when the text
 * it reads ends at `to`; returns where the scan stopped (`to`, or the end of the last match when
 * `sink` stopped it or when `stopAfter` was reached: the first match ending at or after it).
 * A scan may start at any place a previous match ended (the scanner keeps no state between
 * matches), and `to` may be any place no token spans.
 */
export function scanStandard(text: string, from: number, to: number, sink: StandardSink, stopAfter = to): number {
  let pos = from;
  while (pos < to) {
    const start = pos;
    // the buffer: max_token_length chars from the token's start (see above)
    let limit = start + MAX_TOKEN_LENGTH;
    if (limit <= text.length) {
      const last = text.charCodeAt(limit - 1);
      if (last >= 0xd800 && last <= 0xdbff) limit--;
    }
    if (limit > to) limit = to;
    let state = 0;
    let accepted = -1;
    let marked = start;
    let cur = start;
    while (cur < limit) {
      let cp = text.charCodeAt(cur++);
      if (cp >= 0xd800 && cp <= 0xdbff && cur < limit) {
        const low = text.charCodeAt(cur);
        if (low >= 0xdc00 && low <= 0xdfff) {
          cp = ((cp - 0xd800) << 10) + (low - 0xdc00) + 0x10000;
          cur++;
        }
      }
      const next = TRANSITIONS[state * CLASSES + classOf(cp)];
      if (next < 0) break;
      state = next;
      const attribute = ATTRIBUTE[state];
      if ((attribute & 1) === 1) {
        accepted = state;
        marked = cur;
        if ((attribute & 8) === 8) break;
      }
    }
    // every character matches at least the rule that skips one character
    if (accepted < 0) throw new Error(`standard tokenizer: no match at ${start}`);
    pos = marked;
    const type = RULE_TYPE[ACTION[accepted]];
    if (type >= 0 && sink(type, start, marked) === false) return pos;
    if (pos >= stopAfter) return pos;
  }
  return pos;
}

/** A token of the standard tokenizer. */
export interface StandardToken {
  readonly text: string;
  readonly type: number;
  readonly start: number;
  readonly end: number;
}

/** Every token of a text (tests, short texts). */
export function standardTokenize(text: string): StandardToken[] {
  const tokens: StandardToken[] = [];
  scanStandard(text, 0, text.length, (type, start, end) => {
    tokens.push({ text: text.slice(start, end), type, start, end });
  });
  return tokens;
}
