/**
 * The boundaries of java.text.BreakIterator's sentence and word instances (the JDK's
 * RuleBasedBreakIterator with its built-in "SentenceBreakRules" and "WordBreakRules"), which is what
 * Elasticsearch's unified highlighter splits passages with (`BreakIterator.getSentenceInstance` /
 * `getWordInstance`, Locale.ROOT: DefaultHighlighter.getBreakIterator).
 *
 * Written by hand because no library reproduces them: Intl.Segmenter (ICU) follows UAX #29, whose
 * rules differ from the JDK's on ordinary text (measured on a generated corpus: about one line in two
 * split differently). The JDK breaks a sentence after ". " before "(" or a quote, but not after a
 * newline nor before a digit; its words keep "state-of-the-art" and `say"hi` together. The rules
 * below are the JDK's, read as regular expressions (a boundary goes after the longest match, or
 * where a rule's lookahead starts), and checked against the JDK itself by the differential test
 * (testing/lucene.test.ts).
 *
 * Format characters (Cf; for sentences also combining marks) are transparent, as the JDK's
 * "ignore" class: they are skipped by the rules and stay with the character before them.
 */

/** A text with its ignored characters taken out, and where each remaining character was. */
export interface Stripped {
  readonly text: string;
  /** Index in the original text of each code unit of `text`, plus the original length at the end. */
  readonly at: Int32Array;
}

/**
 * The text without the characters `ignored` matches (a global regular expression of single code
 * points), or null when it has none: the kept runs are cut out whole (never a character at a time).
 */
export function strip(text: string, ignored: RegExp): Stripped | null {
  ignored.lastIndex = 0;
  if (!ignored.test(text)) return null;
  const parts: string[] = [];
  const at = new Int32Array(text.length + 1);
  let kept = 0;
  let from = 0;
  ignored.lastIndex = 0;
  for (let m = ignored.exec(text); m !== null; m = ignored.exec(text)) {
    parts.push(text.slice(from, m.index));
    for (let i = from; i < m.index; i++) at[kept++] = i;
    from = ignored.lastIndex;
  }
  parts.push(text.slice(from));
  for (let i = from; i < text.length; i++) at[kept++] = i;
  at[kept] = text.length;
  return { text: parts.join(''), at: at.subarray(0, kept + 1) };
}

/** Where boundary `b` of the stripped text is in the original: after the ignored characters that follow the character before it. */
export function unstripped(b: number, stripped: Stripped, length: number): number {
  return b === 0 ? 0 : b >= stripped.text.length ? length : stripped.at[b];
}

/** Every boundary of a text walked forward with `next` (the boundary after a boundary), 0 and its length included. */
function walk(text: string, ignored: RegExp, next: (t: string, at: number) => number): Int32Array {
  const stripped = strip(text, ignored);
  const t = stripped === null ? text : stripped.text;
  const out = [0];
  for (let at = 0; at < t.length; ) {
    at = next(t, at);
    out.push(at);
  }
  if (stripped === null) return Int32Array.from(out);
  return Int32Array.from(out, (b) => unstripped(b, stripped, text.length));
}

// ---------------------------------------------------------------- sentences

export const S_IGNORE = /[\p{Mn}\p{Me}\p{Cf}]/gu;

/** Whether the sentence rules ignore some character of the text (marks, format characters). */
export function hasIgnoredForSentences(text: string): boolean {
  S_IGNORE.lastIndex = 0;
  return S_IGNORE.test(text);
}
const LETTER = '\\p{L}';
const NOT_LOWER = '[\\p{L}--\\p{Ll}]';
const SPACE = '[\\t\\r\\f\\n\\u2028\\p{Zs}]';
const START_PUNCT = `[\\p{Ps}\\p{Pi}"']`;
const TERM = '[!?\\u3002\\uff01\\uff1f]';
const PERIOD = '[.\\uff0e]';
/** Characters that may start a sentence: anything not named by another class (letters and digits excluded). */
const SENT_START = `[^\\p{L}\\t\\r\\f\\n\\u2028\\p{Zs}\\p{Ps}\\p{Pi}\\p{Pe}\\p{Pf}"'\\p{N}!?\\u3002\\uff01\\uff1f.\\uff0e,\\u2029\\p{Mn}\\p{Me}\\p{Cf}]`;

/** After a period: more periods or closing punctuation, then spaces, then a capital letter: break before the letter. */
const PERIOD_CAPITAL = new RegExp(`${PERIOD}[.\\uff0e\\p{Pe}\\p{Pf}"']*${SPACE}+(?=${NOT_LOWER})`, 'vy');
/**
 * After a period, two spaces or more, then any letter: the JDK's state table breaks there too (its
 * lookahead for the rule above does not tell the case of a letter after a second space).
 */
const PERIOD_SPACES_LETTER = new RegExp(`${PERIOD}[.\\uff0e\\p{Pe}\\p{Pf}"']*${SPACE}${SPACE}+(?=${LETTER})`, 'vy');
/**
 * After a period: ..., then opening punctuation or a sentence-starting symbol, then a letter. A quote
 * may close the sentence or open the next one; the break goes after the longest run of closing
 * punctuation and spaces either way (`."q` breaks before q: the JDK's lookahead position is the last
 * one its state table passed).
 */
const PERIOD_PREFIX = new RegExp(`${PERIOD}[.\\uff0e\\p{Pe}\\p{Pf}"']*${SPACE}*`, 'vy');
const DANDA = new RegExp(`[\\u0964\\u0965]${SPACE}*`, 'vy');
const PERIOD_OPENING = new RegExp(`${PERIOD}[.\\uff0e\\p{Pe}\\p{Pf}"']*?${SPACE}*(?=(?:${START_PUNCT}|${SENT_START})+${LETTER})`, 'vy');
/** After a terminator: more terminators, periods or closing punctuation, spaces, one paragraph separator. */
const TERMINATOR = new RegExp(`${TERM}[!?\\u3002\\uff01\\uff1f.\\uff0e\\p{Pe}\\p{Pf}"']*${SPACE}*\\u2029?`, 'vy');

/**
 * A period followed by opening punctuation or sentence-starting symbols that no letter follows, after
 * two spaces or more, or up to the end of the text: no rule completes, and the JDK's iterator falls
 * back to its first accepting position, which puts the period alone between two boundaries ("e.g" |
 * "." | ":"). Each run is taken whole (the lookahead-and-backreference groups do not backtrack).
 */
const DANGLING_PERIOD = new RegExp(`${PERIOD}(?=([.\\uff0e\\p{Pe}\\p{Pf}"']*))\\1(?=(${SPACE}*))\\2(?=((?:${START_PUNCT}|${SENT_START})+))\\3(?!${LETTER})`, 'vy');

function danglingPeriod(text: string, at: number): boolean {
  DANGLING_PERIOD.lastIndex = at;
  const m = DANGLING_PERIOD.exec(text);
  return m !== null && (m[2].length >= 2 || DANGLING_PERIOD.lastIndex === text.length);
}

const PERIOD_RUN = new RegExp(`[.\\uff0e\\p{Pe}\\p{Pf}"']+`, 'vy');

function sticky(re: RegExp, text: string, at: number): number {
  re.lastIndex = at;
  return re.test(text) ? re.lastIndex : -1;
}

/**
 * End of the sentence starting at `from` (the first place a rule completes, else the end of the text):
 * the JDK iterator's handleNext, on a text without ignored characters.
 */
export function sentenceEnd(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x2029) return i + 1;
    if (c === 0x2e || c === 0xff0e) {
      const opening = sticky(PERIOD_OPENING, text, i) > i ? sticky(PERIOD_PREFIX, text, i) : -1;
      const end = Math.max(sticky(PERIOD_CAPITAL, text, i), sticky(PERIOD_SPACES_LETTER, text, i), opening);
      if (end > i) return end;
      if (danglingPeriod(text, i)) return i > from ? i : i + 1;
      // no rule completes from a later period of the same run of periods and closing punctuation
      // either (its continuation is this one's): skip the run, so that a text of periods stays linear
      PERIOD_RUN.lastIndex = i;
      PERIOD_RUN.test(text);
      i = PERIOD_RUN.lastIndex - 1;
    } else if (c === 0x21 || c === 0x3f || c === 0x3002 || c === 0xff01 || c === 0xff1f) {
      return sticky(TERMINATOR, text, i);
    } else if (c === 0x964 || c === 0x965) {
      return sticky(DANDA, text, i);
    }
  }
  return text.length;
}

/** The sentence boundaries of a text, 0 and its length included (BreakIterator.getSentenceInstance). */
export function sentenceBoundaries(text: string): Int32Array {
  return walk(text, S_IGNORE, sentenceEnd);
}

// ---------------------------------------------------------------- words

export const W_IGNORE = new RegExp('[\\p{Cf}--\\u00ad]', 'gv');
const ENCLOSING = '[\\p{Mn}\\p{Me}]';
const CJK = '\\u3005\\u4e00-\\u9fa5\\uf900-\\ufa2d\\u30a1-\\u30fa\\u30fd\\u30fe\\u3041-\\u3094\\u309d\\u309e\\u3099-\\u309c\\u30fb\\u30fc';
const LET = `[[\\p{L}\\p{Mc}]--[${CJK}]]${ENCLOSING}*`;
const DGT = `\\p{N}${ENCLOSING}*`;
const MID_WORD = `[\\p{Pd}\\p{Pc}\\u00ad\\u2027"'.]`;
const MID_NUM = `["',\\u066b.]`;
const POST_NUM = '[%&\\u00a2\\u066a\\u2030\\u2031]';
const PRE_NUM = '[[\\p{Sc}#.]--[\\u00a2]]';
const WORD = `(?:(?:${LET})+(?:${MID_WORD}(?:${LET})+)*[\\u0964\\u0965]?)`;
const NUMBER = `(?:(?:${DGT})+(?:${MID_NUM}(?:${DGT})+)*)`;
const WORD_RULES = [
  // words and numbers run together ("abc123"), a number with its suffix ("50%")
  new RegExp(`${WORD}?(?:${NUMBER}${WORD})*(?:${NUMBER}${POST_NUM}?)?`, 'vy'),
  // a number with its prefix ("$100", "#1", ".5")
  new RegExp(`${PRE_NUM}(?:${NUMBER}${WORD})*(?:${NUMBER}${POST_NUM}?)?`, 'vy'),
  // whitespace, with one trailing line separator
  new RegExp(`(?:[\\p{Zs}\\t]${ENCLOSING}*)*\\r?[\\n\\f\\u2028\\u2029]?`, 'vy'),
  /[\u30a1-\u30fa\u30fd\u30fe\u3099-\u309c\u30fb\u30fc]*/y,
  /[\u3041-\u3094\u309d\u309e\u3099-\u309c\u30fb\u30fc]*/y,
  /[\u3005\u4e00-\u9fa5\uf900-\ufa2d]*/y,
  // any other character with its combining marks
  new RegExp(`[^\\p{Mn}\\p{Me}\\p{Cc}\\p{Cf}\\p{Zl}\\p{Zp}]${ENCLOSING}+`, 'vy'),
];

/** ASCII classes of the fast path: 1 letter or digit, 2 space or tab, 3 a character that may continue a word or a number (MID_WORD, MID_NUM, POST_NUM). */
const ASCII_WORD = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  ASCII_WORD[c] = /[A-Za-z0-9]/.test(ch) ? 1 : ch === ' ' || ch === '\t' ? 2 : `-_"'.,%&`.includes(ch) ? 3 : 0;
}

const isAsciiDigit = (c: number) => c >= 0x30 && c <= 0x39;

/**
 * The end of the word at `at` for the common ASCII cases, or -1: a run of ASCII letters and digits
 * followed by an ASCII character that cannot continue it (or by inner punctuation and then such a
 * character: "fox, ") is one word, the rules' longest match; a run of spaces and tabs followed by an
 * ASCII character other than CR one whitespace word, with a line feed or form feed after it; other
 * ASCII punctuation (but CR) before an ASCII character that is not a digit, one character.
 */
function asciiWordEnd(text: string, at: number): number {
  const c = text.charCodeAt(at);
  if (c >= 128) return -1;
  const kind = ASCII_WORD[c];
  if (kind !== 1 && kind !== 2) {
    if (c === 0x0d) return -1;
    const n = at + 1 < text.length ? text.charCodeAt(at + 1) : 0x20;
    return n < 128 && !isAsciiDigit(n) ? at + 1 : -1;
  }
  let e = at + 1;
  while (e < text.length) {
    const n = text.charCodeAt(e);
    if (n >= 128 || ASCII_WORD[n] !== kind) break;
    e++;
  }
  if (e === text.length) return e;
  const n = text.charCodeAt(e);
  if (n >= 128) return -1;
  if (kind === 1) {
    if (ASCII_WORD[n] !== 3) return e;
    // inner punctuation: the word goes on only if a letter, digit or mark follows it (a suffix: the rules)
    if (n === 0x25 || n === 0x26 || e + 1 >= text.length) return -1;
    const after = text.charCodeAt(e + 1);
    return after < 128 && ASCII_WORD[after] !== 1 ? e : -1;
  }
  if (n === 0x0d) return -1;
  return n === 0x0a || n === 0x0c ? e + 1 : e;
}

/** End of the word starting at `at`: the longest match of any rule, at least one character. */
export function wordEnd(text: string, at: number): number {
  const fast = asciiWordEnd(text, at);
  return fast >= 0 ? fast : ruleWordEnd(text, at);
}

/** wordEnd by the rules alone. */
export function ruleWordEnd(text: string, at: number): number {
  const cp = text.codePointAt(at) as number;
  let best = cp > 0xffff ? 2 : 1;
  for (const rule of WORD_RULES) {
    rule.lastIndex = at;
    if (rule.test(text) && rule.lastIndex - at > best) best = rule.lastIndex - at;
  }
  return at + best;
}

/** The word boundaries of a text, 0 and its length included (BreakIterator.getWordInstance). */
export function wordBoundaries(text: string): Int32Array {
  return walk(text, W_IGNORE, wordEnd);
}
