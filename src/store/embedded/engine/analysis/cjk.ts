/**
 * The filters of Lucene's CJKAnalyzer:
 * - CJKWidthFilter: full-width ASCII variants (U+FF01-U+FF5E) folded to ASCII, half-width Katakana
 *   (U+FF65-U+FF9F) to the usual Katakana, a half-width (semi-)voiced sound mark combined with the
 *   kana before it when it has such a form (ｶﾞ → ガ), else mapped to the combining mark.
 * - CJKBigramFilter (Han, Hiragana, Katakana and Hangul, no unigrams): the code points of adjacent CJK
 *   tokens (each starting where the previous one ended) form overlapping bigrams (`<DOUBLE>`); a CJK
 *   code point with no CJK neighbour is a unigram (`<SINGLE>`); other tokens pass through. Ported
 *   from Lucene's class, its buffer and "lone character" states included.
 */
import { HANGUL, HIRAGANA, IDEOGRAPHIC, KATAKANA, TOKEN_TYPES } from './standardTokenizer';
import { Token } from './tokens';

const KANA_NORM = [
  0x30fb, 0x30f2, 0x30a1, 0x30a3, 0x30a5, 0x30a7, 0x30a9, 0x30e3, 0x30e5, 0x30e7, 0x30c3, 0x30fc, 0x30a2, 0x30a4, 0x30a6, 0x30a8, 0x30aa, 0x30ab, 0x30ad, 0x30af, 0x30b1, 0x30b3, 0x30b5, 0x30b7,
  0x30b9, 0x30bb, 0x30bd, 0x30bf, 0x30c1, 0x30c4, 0x30c6, 0x30c8, 0x30ca, 0x30cb, 0x30cc, 0x30cd, 0x30ce, 0x30cf, 0x30d2, 0x30d5, 0x30d8, 0x30db, 0x30de, 0x30df, 0x30e0, 0x30e1, 0x30e2, 0x30e4,
  0x30e6, 0x30e8, 0x30e9, 0x30ea, 0x30eb, 0x30ec, 0x30ed, 0x30ef, 0x30f3, 0x3099, 0x309a,
];

/** What a voiced sound mark adds to the kana U+30A6 + i. */
const VOICED = [
  78, 0, 0, 0, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 8, 8, 8, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
];
/** What a semi-voiced sound mark adds to the kana U+30A6 + i. */
const HALF_VOICED = [
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 2, 0, 0, 2, 0, 0, 2, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
];

/** CJKWidthFilter on one term (its chars, as Lucene's loop over the term buffer). */
export function cjkWidth(term: string): string {
  let changed = false;
  for (let i = 0; i < term.length && !changed; i++) {
    const c = term.charCodeAt(i);
    changed = (c >= 0xff01 && c <= 0xff5e) || (c >= 0xff65 && c <= 0xff9f);
  }
  if (!changed) return term;
  const text: number[] = [];
  for (let i = 0; i < term.length; i++) text.push(term.charCodeAt(i));
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch >= 0xff01 && ch <= 0xff5e) {
      text[i] = ch - 0xfee0;
    } else if (ch >= 0xff65 && ch <= 0xff9f) {
      if ((ch === 0xff9e || ch === 0xff9f) && i > 0 && combine(text, i, ch)) {
        text.splice(i, 1);
        i--;
      } else {
        text[i] = KANA_NORM[ch - 0xff65];
      }
    }
  }
  return String.fromCharCode(...text);
}

function combine(text: number[], pos: number, ch: number): boolean {
  const prev = text[pos - 1];
  if (prev >= 0x30a6 && prev <= 0x30fd) {
    text[pos - 1] += ch === 0xff9f ? HALF_VOICED[prev - 0x30a6] : VOICED[prev - 0x30a6];
    return text[pos - 1] !== prev;
  }
  return false;
}

const CJK_TYPES = new Set<string>([TOKEN_TYPES[IDEOGRAPHIC], TOKEN_TYPES[HIRAGANA], TOKEN_TYPES[KATAKANA], TOKEN_TYPES[HANGUL]]);

/** CJKBigramFilter(HAN | HIRAGANA | KATAKANA | HANGUL, outputUnigrams false) over a token stream. */
export function cjkBigrams(input: readonly Token[]): Token[] {
  const out: Token[] = [];
  let codePoints: number[] = [];
  let starts: number[] = [];
  let ends: number[] = [];
  let index = 0;
  let lastEnd = 0;
  let next = 0;
  let lone: Token | null = null;
  const hasBigram = () => codePoints.length - index > 1;
  const hasUnigram = () => codePoints.length === 1 && index === 0;
  const flushBigram = () => {
    out.push({ term: String.fromCodePoint(codePoints[index], codePoints[index + 1]), start: starts[index], end: ends[index + 1], positionIncrement: 1, type: '<DOUBLE>' });
    index++;
  };
  const flushUnigram = () => {
    out.push({ term: String.fromCodePoint(codePoints[index]), start: starts[index], end: ends[index], positionIncrement: 1, type: '<SINGLE>' });
    index++;
  };
  const refill = (token: Token) => {
    if (codePoints.length > 64) {
      const last = codePoints.length - 1;
      codePoints = [codePoints[last]];
      starts = [starts[last]];
      ends = [ends[last]];
      index -= last;
    }
    lastEnd = token.end;
    const term = token.term;
    const aligned = token.end - token.start === term.length;
    let start = token.start;
    for (const ch of term) {
      const cp = ch.codePointAt(0) as number;
      codePoints.push(cp);
      starts.push(start);
      if (aligned) start += ch.length;
      ends.push(aligned ? start : token.end);
    }
  };
  for (;;) {
    if (hasBigram()) {
      flushBigram();
      continue;
    }
    let token: Token | undefined;
    if (lone !== null) {
      token = lone;
      lone = null;
    } else if (next < input.length) {
      token = input[next++];
    }
    if (token === undefined) {
      if (hasUnigram()) {
        flushUnigram();
        continue;
      }
      return out;
    }
    if (CJK_TYPES.has(token.type)) {
      if (token.start !== lastEnd) {
        if (hasUnigram()) {
          lone = token;
          flushUnigram();
          continue;
        }
        index = 0;
        codePoints = [];
        starts = [];
        ends = [];
      }
      refill(token);
    } else {
      if (hasUnigram()) {
        lone = token;
        flushUnigram();
        continue;
      }
      out.push(token);
    }
  }
}
