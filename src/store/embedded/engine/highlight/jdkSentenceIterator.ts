/**
 * The JDK's sentence BreakIterator as the highlighter drives it: its preceding() and following() are
 * not simply "the boundary before / after" (the boundaries a forward walk from the start gives,
 * jdkBreaks.ts), which its word iterator's are. RuleBasedBreakIterator goes back to a "safe" position
 * with its backward rules, then forward from there, and remembers the last break it returned:
 *
 * - handlePrevious, from a character backwards: the first place a backward rule completes, the
 *   position of the period in `. "(X` (a period, closing punctuation, spaces, opening punctuation,
 *   then a character that may start a sentence) or of the terminator in `! (x` (then also a
 *   lower-case letter or a digit), or just after a paragraph separator; else the start of the text.
 *   That position need not be a boundary of the forward walk: "e.g.; x" has none, yet preceding()
 *   after it answers the position before the second period.
 * - preceding(offset): from the last break returned when it is before `offset`, else from a safe
 *   position back from offset - 1, forward while under `offset`: the last position reached.
 * - following(offset): the same start (a safe position back from `offset` itself), forward until
 *   past `offset`.
 *
 * Checked against the JDK on every offset of a generated corpus (testing/lucene.test.ts). Texts with
 * characters the sentence rules ignore (combining marks, format characters) are walked as plain
 * boundaries.
 */
import { Budget, Steps } from '../budget/budget';
import { BreakIterator, DONE } from './breakIterator';
import { hasIgnoredForSentences, sentenceEnd } from './jdkBreaks';
import { SENTENCE_WALK, WalkIterator } from './walkIterator';

const END = /[\p{Pe}\p{Pf}"']/u;
const SPACE = /[\t\r\f\n\u2028\p{Zs}]/u;
const START = /[\p{Ps}\p{Pi}"']/u;
const LOWER_OR_DIGIT = /[\p{Ll}\p{N}]/u;
const SENT_START = /[^\p{L}\t\r\f\n\u2028\p{Zs}\p{Ps}\p{Pi}\p{Pe}\p{Pf}"'\p{N}!?\u3002\uff01\uff1f.\uff0e,\u2029\p{Mn}\p{Me}\p{Cf}]/u;

/** Where the run of closing punctuation, then spaces, then opening punctuation that starts at `from` ends. */
function afterRun(text: string, from: number): number {
  let i = from;
  while (i < text.length && END.test(text[i])) i++;
  while (i < text.length && SPACE.test(text[i])) i++;
  while (i < text.length && START.test(text[i])) i++;
  return i;
}

/**
 * handlePrevious: the safe position the backward rules find from the character at `from` leftwards.
 *
 * A rule completes at a period or terminator j when, after it, closing punctuation, spaces and
 * opening punctuation lead (within `from`) to a character that may start a sentence (or, after a
 * terminator, a lower-case letter or a digit). That character can only be the first one after the
 * run (the run's own characters start nothing), so each candidate j costs the length of its run, and
 * runs never hold a period: linear in the distance walked back.
 */
export function safePosition(text: string, from: number): number {
  if (from >= text.length) return text.length;
  for (let j = from; j >= 0; j--) {
    const c = text.charCodeAt(j);
    if (c === 0x2029 && j < from) return j + 1;
    const period = c === 0x2e || c === 0xff0e;
    if (!period && c !== 0x21 && c !== 0x3f && c !== 0x3002 && c !== 0xff01 && c !== 0xff1f) continue;
    const k = afterRun(text, j + 1);
    if (k > from) continue;
    const x = text[k];
    if (SENT_START.test(x) || (!period && LOWER_OR_DIGIT.test(x))) return j;
  }
  return 0;
}

export class JdkSentenceIterator implements BreakIterator {
  private text = '';
  private position = 0;
  private cached = DONE;
  /** For texts with ignored characters: plain boundaries. */
  private plain: WalkIterator | null = null;
  private readonly walker = new WalkIterator(SENTENCE_WALK);

  setText(text: string): void {
    this.text = text;
    this.position = 0;
    this.cached = DONE;
    if (text !== this.checked.text) this.checked = { text, ignored: hasIgnoredForSentences(text) };
    this.plain = this.checked.ignored ? this.walker : null;
    this.plain?.setText(text);
  }

  /** The plain boundaries of `text` (when it has ignored characters) walked beyond `offset`, within the budget; the others need no walk. */
  prepareText(text: string, offset: number, budget: Budget): Steps<void> | null {
    if (text !== this.checked.text) this.checked = { text, ignored: hasIgnoredForSentences(text) };
    return this.checked.ignored ? this.walker.prepareText(text, offset, budget) : null;
  }

  /** The last text prepareText looked at, and whether it has ignored characters. */
  private checked = { text: '', ignored: false };

  get endIndex(): number {
    return this.text.length;
  }

  private handleNext(from: number): number {
    return from >= this.text.length ? DONE : sentenceEnd(this.text, from);
  }

  current(): number {
    return this.plain?.current() ?? this.position;
  }

  first(): number {
    if (this.plain !== null) return this.plain.first();
    return (this.position = 0);
  }

  last(): number {
    if (this.plain !== null) return this.plain.last();
    return (this.position = this.text.length);
  }

  next(): number {
    if (this.plain !== null) return this.plain.next();
    const next = this.handleNext(this.position);
    if (next !== DONE) this.position = next;
    return next;
  }

  previous(): number {
    if (this.plain !== null) return this.plain.previous();
    return this.preceding(this.position);
  }

  preceding(offset: number): number {
    if (this.plain !== null) return this.plain.preceding(offset);
    checkOffset(offset, this.text.length);
    if (offset === 0) return DONE;
    // from the last break returned when it is before offset (the JDK's cachedLastKnownBreak), else a safe position
    let last = this.cached > DONE && this.cached < offset ? this.cached : safePosition(this.text, offset - 1);
    for (let result = this.handleNext(last); result !== DONE && result < offset; result = this.handleNext(result)) last = result;
    this.position = last;
    this.cached = last;
    return last;
  }

  following(offset: number): number {
    if (this.plain !== null) return this.plain.following(offset);
    checkOffset(offset, this.text.length);
    let result: number;
    if (offset === 0) {
      result = this.handleNext(0);
    } else {
      result = this.cached >= offset || this.cached <= DONE ? safePosition(this.text, offset) : this.cached;
      while (result !== DONE && result <= offset) result = this.handleNext(result);
    }
    this.cached = result;
    if (result !== DONE) this.position = result;
    return result;
  }
}

function checkOffset(offset: number, length: number): void {
  if (offset < 0 || offset > length) throw new RangeError(`offset ${offset} out of bounds [0, ${length}]`);
}
