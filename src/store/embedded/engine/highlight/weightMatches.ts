/**
 * The matches of a query in the highlighted field of one document, as the unified highlighter finds
 * them in its WEIGHT_MATCHES mode, which Elasticsearch 8.10+ uses whenever `require_field_match` is
 * true (CustomUnifiedHighlighter; elastic/elasticsearch#96068): the query's Weight.matches on the
 * document (Lucene's FieldOffsetStrategy.createOffsetsEnumsWeightMatcher, over the document's own
 * terms with the highlighted field analyzed again), keeping the matches in the highlighted field.
 *
 * - A clause that does not match the document contributes nothing (BooleanWeight.matches: a failing
 *   required clause or a matching prohibited one means no match at all; optional clauses add theirs
 *   when they match, within minimum_should_match). A clause on another field, or one without terms
 *   (a range, `exists`), matches or not without adding any highlight.
 * - The weight is made without scores, so a boolean query is rewritten as for a filter
 *   (BooleanQuery.rewriteNoScoring): beside a `must` or `filter` clause, its `should` clauses are
 *   dropped unless minimum_should_match asks for some: they highlight nothing (`require_field_match:
 *   false` highlights them).
 * - A phrase is one match from its first to its last term ("<em>quick brown</em>"), a term one match
 *   per occurrence, a pattern or term set one per token it accepts.
 * - Every match counts once in passage scores (MatchesIterator has no frequency: OffsetsEnum's freq
 *   is 1), as the term, the phrase's terms joined by spaces, or the pattern (leafTests.ts).
 * - The highlighted field is analyzed again keeping only the tokens the query looks for outside its
 *   prohibited clauses (MemoryIndexOffsetStrategy's filter: its terms and patterns on that field),
 *   unless the query has a part the highlighter does not know the terms of (match_all): so a
 *   `must_not` on the highlighted field itself does not keep a document's other clauses from
 *   highlighting, as in Elasticsearch.
 */
import { Budget, CHECK_EVERY, Steps, UNLIMITED, runToEnd } from '../budget/budget';
import { combinedFieldAsBoolean } from '../lucene/combinedField';
import { LQuery, LeafQuery } from '../lucene/query';
import { compareUtf8 } from '../strings';
import { TermTest, leafLabel } from './leafTests';
import { OffsetMatch } from './passages';
import { phraseMatchesSteps } from './phraseSpans';
import { sortSteps } from './sortSteps';
import { FieldText, TermGroups, groupByTerm, subset } from './tokens';

/** What the document says about the clauses that have no terms in the highlighted field. */
export interface DocumentMatches {
  /** Whether the document matches the query (as steps when finding out takes work). */
  matches(query: LQuery): boolean | Steps<boolean>;
  /** The query a leaf stands for when rewritten against the document (a pattern under a scoring rewrite). */
  expand(leaf: LeafQuery): LQuery | null;
}

type Found = OffsetMatch[] | null;

/** The tests of the tokens the highlighter's MemoryIndex keeps for `field`, or null when it keeps them all. */
function tokenFilter(query: LQuery, field: string, tests: ReadonlyMap<LeafQuery, TermTest>, doc: DocumentMatches): TermTest | null {
  const terms = new Set<string>();
  const automata: TermTest[] = [];
  let unknown = false;
  const visit = (q: LQuery): void => {
    switch (q.type) {
      case 'matchAll':
        unknown = true;
        return;
      case 'term':
        if (q.field === field) terms.add(q.term);
        return;
      case 'phrase':
        if (q.field === field) for (const t of q.terms) terms.add(t);
        return;
      case 'multiPhrase':
        if (q.field === field) for (const list of q.termArrays) for (const t of list) terms.add(t);
        return;
      case 'combinedField':
        if (q.fields.some((f) => f.field === field)) for (const t of q.terms) terms.add(t);
        return;
      case 'boost':
      case 'constantScore':
      case 'functionScore':
        visit(q.query);
        return;
      case 'bool':
        for (const clause of q.clauses) if (clause.occur !== 'must_not') visit(clause.query);
        return;
      case 'disMax':
        for (const disjunct of q.disjuncts) visit(disjunct);
        return;
      case 'leaf': {
        const test = tests.get(q);
        if (test === undefined || q.terms === undefined) {
          // a query expanded at search time (match_phrase_prefix): the terms of its expansion here
          const expanded = q.terms === undefined ? doc.expand(q) : null;
          if (expanded !== null) visit(expanded);
          return;
        }
        if (q.terms.field !== field) return;
        const exact = q.terms.terms;
        if (exact !== undefined && exact.length === 1) terms.add(exact[0]);
        else automata.push(test);
        return;
      }
      default:
        return;
    }
  };
  visit(query);
  if (unknown) return null;
  return (term) => terms.has(term) || automata.some((accepts) => accepts(term));
}

/** Which of the text's distinct terms `accepts` takes (by term id), each tested once, within the budget. */
export function* acceptedTerms(text: FieldText, accepts: TermTest, budget: Budget): Steps<Uint8Array> {
  const dict = text.terms;
  const out = new Uint8Array(dict.size);
  for (let id = 0; id < dict.size; id++) {
    if (accepts(dict.term(id))) out[id] = 1;
    if ((id & CHECK_EVERY) === CHECK_EVERY && budget.due()) yield;
  }
  return out;
}

/** The matches of the tokens whose term `accepted` marks, in token order, each counted once as `label`. */
function* tokensAccepted(text: FieldText, accepted: Uint8Array, label: (id: number) => string, budget: Budget): Steps<Found> {
  const out: OffsetMatch[] = [];
  for (let i = 0; i < text.size; i++) {
    const id = text.term[i];
    if (accepted[id] === 1) out.push({ start: text.start[i], end: text.end[i], term: label(id), freq: 1 });
    if ((i & CHECK_EVERY) === CHECK_EVERY && budget.due()) yield;
  }
  return out.length === 0 ? null : out;
}

/**
 * @param original the query as built, whose terms the highlighter extracts (the MemoryIndex's filter)
 * @param query the same rewritten (IndexSearcher.rewrite), whose Weight.matches are read
 */
export function* weightMatchesSteps(
  original: LQuery,
  query: LQuery,
  field: string,
  fieldText: FieldText,
  tests: ReadonlyMap<LeafQuery, TermTest>,
  doc: DocumentMatches,
  budget: Budget,
): Steps<Found> {
  const keep = tokenFilter(original, field, tests, doc);
  const text = keep === null ? fieldText : yield* subset(fieldText, yield* acceptedTerms(fieldText, keep, budget), budget);
  // the tokens by term, made when a term is first looked up: a query of thousands of terms looks each up
  let groups: TermGroups | null = null;
  function* termMatches(term: string): Steps<Found> {
    const id = text.terms.get(term);
    if (id < 0) return null;
    groups ??= yield* groupByTerm(text, budget);
    const out: OffsetMatch[] = [];
    for (let k = groups.first[id], n = 0; k < groups.first[id + 1]; k++, n++) {
      const i = groups.order[k];
      out.push({ start: text.start[i], end: text.end[i], term, freq: 1 });
      if ((n & CHECK_EVERY) === CHECK_EVERY && budget.due()) yield;
    }
    return out.length === 0 ? null : out;
  }

  function* phrase(terms: readonly (readonly string[])[], positions: readonly number[], slop: number): Steps<Found> {
    const label = terms.flat().join(' ');
    const found = (yield* phraseMatchesSteps(text, { terms, positions, slop }, budget)).map(([start, end]): OffsetMatch => ({ start, end, term: label, freq: 1 }));
    return found.length === 0 ? null : found;
  }

  function* elsewhere(q: LQuery): Steps<Found> {
    const answer = doc.matches(q);
    return (typeof answer === 'boolean' ? answer : yield* answer) ? [] : null;
  }

  function* visit(q: LQuery): Steps<Found> {
    switch (q.type) {
      case 'matchNone':
        return null;
      case 'matchAll':
        return [];
      case 'term':
        return q.field === field ? yield* termMatches(q.term) : yield* elsewhere(q);
      case 'phrase':
        return q.field === field ? yield* phrase(q.terms.map((t) => [t]), q.positions, q.slop) : yield* elsewhere(q);
      case 'multiPhrase':
        return q.field === field ? yield* phrase(q.termArrays, q.positions, q.slop) : yield* elsewhere(q);
      case 'combinedField':
        // CombinedFieldWeight.matches: those of its (field, term) pairs' disjunction
        return yield* visit(combinedFieldAsBoolean(q));
      case 'intervals':
        // matches without highlights (IntervalQuery's positions are not highlighted here)
        return yield* elsewhere(q);
      case 'nested':
        // the children's fields are not the hit's: a match without highlights (inner_hits have the children)
        return yield* elsewhere(q);
      case 'boost':
      case 'constantScore':
      case 'functionScore':
        return yield* visit(q.query);
      case 'disMax': {
        let out: Found = null;
        for (const disjunct of q.disjuncts) {
          const m = yield* visit(disjunct);
          if (m !== null) out = append(out ?? [], m);
        }
        return out;
      }
      case 'bool': {
        // BooleanWeight.matches, of the query as its weight is made without scores (rewriteNoScoring:
        // optional clauses beside required ones are dropped unless minimum_should_match asks for them)
        let out: OffsetMatch[] = [];
        let optional = 0;
        let matched = 0;
        const keepShould = q.minimumShouldMatch > 0 || !q.clauses.some((c) => c.occur === 'must' || c.occur === 'filter');
        for (const clause of q.clauses) {
          if (clause.occur === 'should' && !keepShould) continue;
          const m = yield* visit(clause.query);
          if (clause.occur === 'must_not') {
            if (m !== null) return null;
            continue;
          }
          if (m === null) {
            if (clause.occur !== 'should') return null;
            continue;
          }
          out = append(out, m);
          matched++;
          if (clause.occur === 'should') optional++;
        }
        // MatchesUtils.fromSubMatches: no matching clause at all is no match
        return optional < q.minimumShouldMatch || matched === 0 ? null : out;
      }
      case 'leaf': {
        const test = tests.get(q);
        if (test !== undefined && q.terms !== undefined) {
          if (q.terms.field !== field) return yield* elsewhere(q);
          const label = leafLabel(q);
          return yield* tokensAccepted(text, yield* acceptedTerms(text, test, budget), () => label, budget);
        }
        const expanded = doc.expand(q);
        return expanded !== null ? yield* visit(expanded) : yield* elsewhere(q);
      }
    }
  }

  const found = yield* visit(query);
  return found === null ? null : yield* sortSteps(found, byOffsets, budget);
}

/** weightMatchesSteps run at once. */
export function weightMatches(original: LQuery, query: LQuery, field: string, fieldText: FieldText, tests: ReadonlyMap<LeafQuery, TermTest>, doc: DocumentMatches): Found {
  return runToEnd(weightMatchesSteps(original, query, field, fieldText, tests, doc, UNLIMITED));
}

/** `more` added to `out` (the longer one grown: never a spread of a long array into push). */
function append(out: OffsetMatch[], more: OffsetMatch[]): OffsetMatch[] {
  if (out.length === 0) return more === out ? out : more.slice();
  for (let i = 0; i < more.length; i++) out.push(more[i]);
  return out;
}

/** The order the highlighter reads matches in (OffsetsEnum.compareTo): start, end, then term (UTF-8 order). */
export function byOffsets(a: OffsetMatch, b: OffsetMatch): number {
  return a.start - b.start || a.end - b.end || compareUtf8(a.term, b.term);
}
