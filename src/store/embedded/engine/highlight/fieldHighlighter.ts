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
 */
import { QueryLimitError } from '../../../port';
import { BoundaryIterator, BreakIterator, SplittingBreakIterator, wholeIterator } from './breakIterator';
import { BoundedBreakIteratorScanner } from './boundedScanner';
import { formatPassages } from './formatter';
import { wordBoundaries } from './jdkBreaks';
import { JdkSentenceIterator } from './jdkSentenceIterator';
import { FieldOptions } from './options';
import { OffsetMatch, Passage, bestPassages } from './passages';
import { Analysis, FieldText, VALUE_SEPARATOR, fieldText } from './tokens';

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
  /** The matches of the query in the field's text, or null when it cannot match there at all (NoOpOffsetStrategy). */
  readonly matchesIn: ((text: FieldText) => readonly OffsetMatch[]) | null;
}

const INT_MAX = 2147483647;

export function breakIteratorFor(analysis: Analysis, options: FieldOptions): { breaks: BreakIterator; maxPassages: number } {
  if (options.numberOfFragments === 0 || analysis !== 'standard') {
    return { breaks: new SplittingBreakIterator(wholeIterator(), VALUE_SEPARATOR), maxPassages: options.numberOfFragments === 0 ? INT_MAX - 1 : options.numberOfFragments };
  }
  const sentences = new JdkSentenceIterator();
  const base =
    options.boundaryScanner === 'word'
      ? new BoundaryIterator(wordBoundaries)
      : options.fragmentSize > 0
        ? new BoundedBreakIteratorScanner(sentences, new BoundaryIterator(wordBoundaries), options.fragmentSize)
        : sentences;
  return { breaks: new SplittingBreakIterator(base, VALUE_SEPARATOR), maxPassages: options.numberOfFragments };
}

/** CustomFieldHighlighter.getSummaryPassagesNoHighlight. */
function noMatchPassage(content: string, noMatchSize: number): Passage[] {
  if (noMatchSize <= 0) return [];
  let pos = 0;
  while (pos < content.length && content[pos] === VALUE_SEPARATOR) pos++;
  if (pos >= content.length) return [];
  let end = content.indexOf(VALUE_SEPARATOR, pos);
  if (end === -1) end = content.length;
  if (noMatchSize + pos < end) {
    // the next word boundary after noMatchSize, in the whole text
    const words = new BoundaryIterator(wordBoundaries);
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

/** The text of a field (its values joined) and its best passages, before formatting; null when there is nothing to do. */
export function fieldPassages(values: readonly string[], spec: FieldSpec, context: FieldContext): { content: string; passages: Passage[] } | null {
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
    matches = context.matchesIn(fieldText(values, spec.analysis, maxOffset));
    // LimitedOffsetsEnum: no match starting beyond the limit
    const beyond = matches.findIndex((m) => m.start > maxOffset);
    if (beyond >= 0) matches = matches.slice(0, beyond);
  }
  const { breaks, maxPassages } = breakIteratorFor(spec.analysis, options);
  breaks.setText(content);
  const passages = bestPassages(matches, breaks, maxPassages);
  return { content, passages: passages.length > 0 ? passages : noMatchPassage(content, options.noMatchSize) };
}

/** The fragments of one field of one document, or null when it has none (no highlight for it). */
export function highlightField(values: readonly string[], spec: FieldSpec, context: FieldContext): string[] | null {
  const found = fieldPassages(values, spec, context);
  if (found === null) return null;
  const options = spec.options;
  const fragments = formatPassages(found.passages, found.content, {
    preTag: options.preTag,
    postTag: options.postTag,
    encoder: options.encoder,
    numberOfFragments: options.numberOfFragments,
  }).filter((fragment) => hasText(fragment.text));
  if (fragments.length === 0) return null;
  // a stable sort, best first (Double.compare: NaN above every score)
  if (options.scoreOrdered) fragments.sort((a, b) => (Number.isNaN(a.score) ? (Number.isNaN(b.score) ? 0 : -1) : Number.isNaN(b.score) ? 1 : b.score - a.score));
  return fragments.map((fragment) => fragment.text);
}
