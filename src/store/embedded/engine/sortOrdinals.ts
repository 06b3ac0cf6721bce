/**
 * Keyword sort keys as term ordinals while a sorted page is collected, as Lucene's
 * TermOrdValComparator compares the ords of SortedDocValues instead of the terms' bytes: a
 * document's key on a keyword clause is the position of its term in the field's dictionary in
 * order (sortedTerms.ts, UTF-8 order, the order of compareUtf8), so two keys compare as numbers and
 * no term's text is made while collecting. As the page's hits are written, their keys are turned
 * back into their terms' text (`text`), what a hit's `sort` shows:
 * the page, its order and its `sort` values are those of the text keys (sort.ts sortKey), only
 * cheaper to collect.
 *
 * A sort of 10,000 hits over 100,000 documents made a string for most documents it looked at (a
 * keyword key is read from the dictionary's bytes, long terms from disk), and those of the hits
 * kept lived in the collector's heap for the whole collection, which under load spans many slices:
 * the young-generation collections that copied them were the longest pauses of bench:abuse.
 *
 * The ordinals cost a pass over the field's dictionary once per change of it (and its first sort
 * in order, shared with pattern and range queries), so they are used when the search collects at
 * least a quarter as many documents as the field has distinct terms (ORDINALS_MATCHES_PER_TERM);
 * a sort over fewer reads the text of the few it looks at, as before.
 *
 * A value given for `missing`, and a `search_after` value, need not be a term of the dictionary:
 * they take the position between the terms around them (an ordinal minus a half; a `search_after`
 * value between the same two terms as the `missing` value a quarter before or after it), as
 * Elasticsearch's ReplaceMissing puts the `missing` value among the ordinals and Lucene's
 * TermOrdValComparator places an `after` value that is no term between two of them.
 */
import type { Budget, Steps } from './budget/budget';
import type { FieldIndex } from './fieldIndex';
import { toKeyword } from './fieldValues';
import { ResolvedSort, SortKey, sortKey } from './sort';
import type { SortedTerms } from './sortedTerms';
import { compareUtf8 } from './strings';

/** Ordinals are used when the documents to collect are at least this share of the field's distinct terms. */
export const ORDINALS_MATCHES_PER_TERM = 1 / 4;

interface OrdinalClause {
  field: FieldIndex;
  sorted: SortedTerms;
  /** Dictionary id -> position in order. */
  ords: Int32Array;
  /** The clause reads a document's largest term (mode max), else its smallest. */
  largest: boolean;
  /** The key of a document without a value: null (first or last), or the position of the `missing` value. */
  missing: SortKey;
  /** The `missing` value's text, when one is given. */
  missingText: string | null;
}

export class SortOrdinals {
  private constructor(
    private readonly sorts: readonly ResolvedSort[],
    /** Per clause: its ordinals, or null (not a keyword field: its keys are sortKey's). */
    private readonly clauses: readonly (OrdinalClause | null)[],
  ) {}

  /**
   * The ordinals of the keyword clauses of `sorts` for a search that collects `matches` documents,
   * the fields' dictionaries brought into order within the budget; null when no clause uses them.
   */
  static *steps(sorts: readonly ResolvedSort[], matches: number, budget: Budget): Steps<SortOrdinals | null> {
    const clauses: (OrdinalClause | null)[] = [];
    for (const sort of sorts) {
      const field = sort.kind === 'field' && sort.type === 'keyword' ? sort.index : undefined;
      const terms = field?.type === 'keyword' ? field.terms : null;
      if (sort.kind !== 'field' || field === undefined || terms === null || terms === undefined || matches < terms.dict.size * ORDINALS_MATCHES_PER_TERM) {
        clauses.push(null);
        continue;
      }
      const sorted = yield* field.sortedTermsSteps(budget);
      const missingText = sort.missing.kind === 'value' ? toKeyword(sort.missing.value) : null;
      clauses.push({ field, sorted, ords: sorted.ordinals(), largest: sort.mode === 'max', missing: missingText === null ? null : position(sorted, missingText), missingText });
    }
    return clauses.some((c) => c !== null) ? new SortOrdinals(sorts, clauses) : null;
  }

  /** The key of a document for clause `j`: its term's ordinal on a keyword clause (see the header), else sortKey's. */
  key(j: number, doc: number, score: number): SortKey {
    const clause = this.clauses[j];
    if (clause === null) return sortKey(this.sorts[j], doc, score);
    const t = clause.field.keywordTermId(doc, clause.largest);
    return t < 0 ? clause.missing : clause.ords[t];
  }

  /** `search_after`'s keys (sort.ts searchAfterKey) in the same terms: a keyword's text as its position among the ordinals. */
  afterKeys(keys: readonly SortKey[]): SortKey[] {
    return keys.map((key, j) => {
      const clause = this.clauses[j];
      if (clause === null || typeof key !== 'string') return key;
      const at = position(clause.sorted, key);
      // no term, between the same two terms as the `missing` value: a quarter before or after it, by their text
      return at === clause.missing && clause.missingText !== null ? at + Math.sign(compareUtf8(key, clause.missingText)) / 4 : at;
    });
  }

  /**
   * A kept hit's keys with its terms' text for their ordinals: what sortKey would have given. Made
   * as each hit is written, so that a page of 10,000 hits does not hold the text of all its keys
   * while it is written over many slices.
   */
  text(keys: readonly SortKey[]): SortKey[] {
    return keys.map((key, j) => {
      const clause = this.clauses[j];
      // an ordinal is a whole number; the `missing` value's position, when it is no term, is not
      if (clause === null || typeof key !== 'number') return key;
      return Number.isInteger(key) ? clause.sorted.term(key) : clause.missingText;
    });
  }
}

/** The ordinal of `text` if it is a term, else the position between the terms around it (ordinal of the next one minus a half). */
function position(sorted: SortedTerms, text: string): number {
  const at = sorted.lowerBound(text);
  return at < sorted.size && sorted.term(at) === text ? at : at - 0.5;
}
