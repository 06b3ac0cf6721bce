/**
 * Elasticsearch's MultiPhrasePrefixQuery (org.elasticsearch.common.lucene.search): a phrase whose
 * last term is a prefix. At search time (its rewrite) the prefix is expanded over the field's term
 * dictionary in term order, from the first term at or after it (TermsEnum.seekCeil) while the terms
 * start with it, keeping the first `max_expansions` (getPrefixTerms; like Elasticsearch, a limit of 0
 * still keeps one), and the query becomes a MultiPhraseQuery whose last position holds them (one
 * position: a disjunction of their term queries, MultiPhraseQuery.rewrite). No term starts with the
 * prefix: nothing matches.
 *
 * Built as a leaf whose `prepare` walks the sorted dictionary within the search's budget and whose
 * `expand` gives the rewritten query (lucene/expand.ts puts it in place before evaluation, and
 * counts its clauses, a phrase's positions or a disjunction's terms, against maxClauseCount). The
 * terms are those of the whole collection, as in Elasticsearch, where the tenant filter is a filter
 * on the hits (it never adds a hit, nor changes a score).
 */
import { Budget, Steps } from '../budget/budget';
import { FieldIndex } from '../fieldIndex';
import { InvertedIndex } from '../invertedIndex';
import { evaluate } from '../lucene/evaluate';
import { LQuery, LeafQuery, MultiPhraseQuery, matchNone } from '../lucene/query';
import { rewrite } from '../lucene/rewrite';
import { Prepared } from './leaves';

/** Terms visited between two budget checks. */
const CHUNK = 4096;

/** The first `maxExpansions` terms of the field starting with `prefix`, in term order (at least one when there is one). */
export function* prefixExpansions(f: FieldIndex, prefix: string, maxExpansions: number, budget: Budget): Steps<string[]> {
  const sorted = yield* f.sortedTermsSteps(budget);
  const df = f.terms!.df;
  const terms: string[] = [];
  for (let i = sorted.lowerBound(prefix), visited = 1; i < sorted.size; i++, visited++) {
    const term = sorted.term(i);
    if (!term.startsWith(prefix)) break;
    // a term no live document holds is not in the dictionary of an Elasticsearch index once merged
    if (df[sorted.id(i)] > 0) {
      terms.push(term);
      if (terms.length >= maxExpansions) break;
    }
    if (visited % CHUNK === 0 && budget.due()) yield;
  }
  return terms;
}

export interface PhrasePrefixParams {
  readonly field: string;
  /** The analyzed tokens, the last one the prefix (at least one). */
  readonly tokens: readonly string[];
  /** Their positions (0, 1, 2... when absent; a stop word the analyzer removed leaves a gap). */
  readonly positions?: readonly number[];
  readonly slop: number;
  readonly maxExpansions: number;
}

/** MultiPhrasePrefixQuery on a text field, expanded when the search evaluates it. */
export function multiPhrasePrefix({ field, tokens, positions, slop, maxExpansions }: PhrasePrefixParams): LeafQuery {
  const prefix = tokens[tokens.length - 1];
  const expansions = new Prepared((f: FieldIndex, budget: Budget) => prefixExpansions(f, prefix, maxExpansions, budget));
  const expand = (index: InvertedIndex): LQuery => {
    const f = index.field(field);
    if (f === undefined || f.terms === null) return matchNone(`unmapped field ${field}`);
    const expanded = expansions.take(index, f);
    if (expanded.length === 0) return matchNone('No terms supplied for MultiPhrasePrefixQuery');
    const termArrays = [...tokens.slice(0, -1).map((t) => [t]), expanded];
    const phrase: MultiPhraseQuery = { type: 'multiPhrase', field, termArrays, positions: positions ?? termArrays.map((_, i) => i), slop };
    return rewrite(phrase);
  };
  return {
    type: 'leaf',
    key: `phrasePrefix:${JSON.stringify([field, tokens, positions ?? null, slop, maxExpansions])}`,
    docs: (index) => evaluate(expand(index), index, 1, false)?.docList() ?? [],
    *prepare(index, budget) {
      const f = index.field(field);
      if (f !== undefined && f.terms !== null) yield* expansions.prepare(index, f, budget);
    },
    expand,
  };
}
