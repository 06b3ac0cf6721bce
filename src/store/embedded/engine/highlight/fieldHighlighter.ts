/**
 * One field of one document highlighted, as Elasticsearch's DefaultHighlighter and
 * CustomUnifiedHighlighter do it: the values (from the source) joined with U+0000, analyzed again
 * with the field's analyzer (tokens.ts), the query's matches found in them (weightMatches.ts, or
 * extractedTerms.ts when `require_field_match` is false), the best passages picked (passages.ts)
 * within the field's break iterator, and formatted (formatter.ts).
 *
 * - Break iterator (DefaultHighlighter.getBreakIterator): for `number_of_fragments: 0` and for fields
 *   that are not analyzed (keyword and the others), every value whole, as many fragments as values
 *   match; else the JDK's sentence iterator bounded to `fragment_size` (BoundedBreakIteratorScanner;
 *   unbounded when fragment_size is 0 or less), or its word iterator for `boundary_scanner: word`.
 *   Lucene wraps it so that no passage spans two values (SplittingBreakIterator).
 * - No match: with `no_match_size` > 0, the beginning of the first non-empty value, up to the first
 *   word boundary after that many characters (CustomFieldHighlighter.getSummaryPassagesNoHighlight).
 * - Fragments of blank text are dropped; `order: score` sorts them best first (stable).
 * - `index.highlight.max_analyzed_offset` (MAX_ANALYZED_OFFSET): a field longer than that is refused
 *   (QueryLimitError, Elasticsearch's 400), unless the request's `max_analyzed_offset` (at most the
 *   limit; -1: the limit) says to analyze each value up to it, and matches are kept up to it.
 *
 * Every step runs as steps within the search's budget (`...Steps`: analysis, matches, passages with
 * their break iterator walked ahead, formatting), checking it about every thousand tokens, matches
 * or characters of work: a field of 1,000,000 characters takes a few hundred milliseconds, the event
 * loop given back every slice. The synchronous forms (`fieldPassages`, `highlightField`) run the same
 * steps to their end.
 */
import { QueryLimitError } from '../../../port';
import { Budget, Steps, UNLIMITED, runToEnd } from '../budget/budget';
import { BreakIterator, SplittingBreakIterator, wholeIterator } from './breakIterator';
import { BoundedBreakIteratorScanner } from './boundedScanner';
import { formatPassagesSteps } from './formatter';
import { JdkSentenceIterator } from './jdkSentenceIterator';
import { FieldOptions } from './options';
import { OffsetMatch, Passage, bestPassagesSteps } from './passages';
import { Analysis, FieldText, VALUE_SEPARATOR, fieldTextSteps, isTextAnalysis } from './tokens';
import { WORD_WALK, WalkIterator } from './walkIterator';

/** What is known of the field to highlight. */
export interface FieldSpec {
  readonly name: string;
  /** The analyzer its values are tokenized with (keyword for every type but text). */
  readonly analysis: Analysis;
  readonly options: FieldOptions;
}

export interface FieldContext {
  /** The document's id, for messages. */
  readonly id: string;
  /** index.highlight.max_analyzed_offset. */
  readonly indexMaxAnalyzedOffset: number;
  /** The matches of the query in the field's text (found at once, or as steps within the budget), or null when it cannot match there at all (NoOpOffsetStrategy). */
  readonly matchesIn: ((text: FieldText, budget: Budget) => readonly OffsetMatch[] | Steps<readonly OffsetMatch[]>) | null;
}

const INT_MAX = 2147483647;

/** The JDK's word instance, walked as far as it is asked (walkIterator.ts). */
export const wordIterator = (): WalkIterator => new WalkIterator(WORD_WALK);

export function breakIteratorFor(analysis: Analysis, options: FieldOptions): { breaks: SplittingBreakIterator; maxPassages: number } {
  if (options.numberOfFragments === 0 || !isTextAnalysis(analysis)) {
    return { breaks: new SplittingBreakIterator(wholeIterator(), VALUE_SEPARATOR), maxPassages: options.numberOfFragments === 0 ? INT_MAX - 1 : options.numberOfFragments };
  }
  const sentences = new JdkSentenceIterator();
  const base: BreakIterator =
    options.boundaryScanner === 'word'
      ? wordIterator()
      : options.fragmentSize > 0
        ? new BoundedBreakIteratorScanner(sentences, wordIterator(), options.fragmentSize)
        : sentences;
  return { breaks: new SplittingBreakIterator(base, VALUE_SEPARATOR), maxPassages: options.numberOfFragments };
}

/** CustomFieldHighlighter.getSummaryPassagesNoHighlight. */
function* noMatchPassage(content: string, noMatchSize: number, budget: Budget): Steps<Passage[]> {
  if (noMatchSize <= 0) return [];
  let pos = 0;
  while (pos < content.length && content[pos] === VALUE_SEPARATOR) pos++;
  if (pos >= content.length) return [];
  let end = content.indexOf(VALUE_SEPARATOR, pos);
  if (end === -1) end = content.length;
  if (noMatchSize + pos < end) {
    // the next word boundary after noMatchSize, in the whole text (walked that far only)
    const words = wordIterator();
    const walk = words.prepareText(content, noMatchSize + pos, budget);
    if (walk !== null) yield* walk;
    words.setText(content);
    const after = words.following(noMatchSize + pos);
    end = after === -1 ? content.length : after;
  }
  return [{ start: pos, end, score: NaN, matches: [] }];
}

/** Java's Character.isWhitespace. */
function isJavaWhitespace(c: number): boolean {
  if ((c >= 0x09 && c <= 0x0d) || (c >= 0x1c && c <= 0x20)) return true;
  if (c === 0xa0 || c === 0x2007 || c === 0x202f) return false;
  return c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x205f || c === 0x3000;
}

/** Elasticsearch's Strings.hasText: some character that is not whitespace. */
function hasText(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (!isJavaWhitespace(text.charCodeAt(i))) return true;
  return false;
}

/** The text of a field (its values joined) and its best passages, before formatting, within the budget; null when there is nothing to do. */
export function* fieldPassagesSteps(values: readonly string[], spec: FieldSpec, context: FieldContext, budget: Budget): Steps<{ content: string; passages: Passage[] } | null> {
  const options = spec.options;
  if (values.length === 0) return null;
  // nothing the query could match here, and no summary asked for: nothing to do at all
  if (context.matchesIn === null && options.noMatchSize <= 0) return null;
  const content = values.join(VALUE_SEPARATOR);
  if (content.length === 0) return null;
  const limit = context.indexMaxAnalyzedOffset;
  const asked = options.maxAnalyzedOffset === null ? null : options.maxAnalyzedOffset < 0 ? limit : options.maxAnalyzedOffset;
  if ((asked === null || asked > limit) && content.length > limit) {
    throw new QueryLimitError(
      'max_analyzed_offset',
      { length: content.length, field: spec.name, id: context.id, limit },
      // Elasticsearch's message (CustomUnifiedHighlighter), which the Elasticsearch store reads back (../../elasticsearch/errors.ts)
      `The length [${content.length}] of field [${spec.name}] in doc[${context.id}]/index[] exceeds the [index.highlight.max_analyzed_offset] limit [${limit}]. To avoid this error, set the query parameter [max_analyzed_offset] to a value less than index setting [${limit}] and this will tolerate long field values by truncating them.`,
    );
  }
  const maxOffset = asked ?? Infinity;
  let matches: readonly OffsetMatch[] = [];
  if (context.matchesIn !== null) {
    const found = context.matchesIn(yield* fieldTextSteps(values, spec.analysis, maxOffset, budget), budget);
    matches = Array.isArray(found) ? found : yield* (found as Steps<readonly OffsetMatch[]>);
    // LimitedOffsetsEnum: no match starting beyond the limit
    const beyond = matches.findIndex((m) => m.start > maxOffset);
    if (beyond >= 0) matches = matches.slice(0, beyond);
  }
  const { breaks, maxPassages } = breakIteratorFor(spec.analysis, options);
  breaks.setText(content);
  const passages = yield* bestPassagesSteps(matches, breaks, maxPassages, budget);
  return { content, passages: passages.length > 0 ? passages : yield* noMatchPassage(content, options.noMatchSize, budget) };
}

/** fieldPassagesSteps run at once. */
export function fieldPassages(values: readonly string[], spec: FieldSpec, context: FieldContext): { content: string; passages: Passage[] } | null {
  return runToEnd(fieldPassagesSteps(values, spec, context, UNLIMITED));
}

/** The fragments of one field of one document, or null when it has none (no highlight for it), within the budget. */
export function* highlightFieldSteps(values: readonly string[], spec: FieldSpec, context: FieldContext, budget: Budget): Steps<string[] | null> {
  const found = yield* fieldPassagesSteps(values, spec, context, budget);
  if (found === null) return null;
  const options = spec.options;
  const formatted = yield* formatPassagesSteps(
    found.passages,
    found.content,
    {
      preTag: options.preTag,
      postTag: options.postTag,
      encoder: options.encoder,
      numberOfFragments: options.numberOfFragments,
    },
    budget,
  );
  const fragments = formatted.filter((fragment) => hasText(fragment.text));
  if (fragments.length === 0) return null;
  // a stable sort, best first (Double.compare: NaN above every score)
  if (options.scoreOrdered) fragments.sort((a, b) => (Number.isNaN(a.score) ? (Number.isNaN(b.score) ? 0 : -1) : Number.isNaN(b.score) ? 1 : b.score - a.score));
  return fragments.map((fragment) => fragment.text);
}

/** highlightFieldSteps run at once. */
export function highlightField(values: readonly string[], spec: FieldSpec, context: FieldContext): string[] | null {
  return runToEnd(highlightFieldSteps(values, spec, context, UNLIMITED));
}
