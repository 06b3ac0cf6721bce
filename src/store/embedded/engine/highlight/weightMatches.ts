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
import { LQuery, LeafQuery } from '../lucene/query';
import { compareUtf8 } from '../strings';
import { TermTest, leafLabel } from './leafTests';
import { OffsetMatch } from './passages';
import { phraseMatches } from './phraseSpans';
import { FieldText, Token } from './tokens';

/** What the document says about the clauses that have no terms in the highlighted field. */
export interface DocumentMatches {
  /** Whether the document matches the query. */
  matches(query: LQuery): boolean;
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
      case 'boost':
      case 'constantScore':
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

/**
 * @param original the query as built, whose terms the highlighter extracts (the MemoryIndex's filter)
 * @param query the same rewritten (IndexSearcher.rewrite), whose Weight.matches are read
 */
export function weightMatches(original: LQuery, query: LQuery, field: string, fieldText: FieldText, tests: ReadonlyMap<LeafQuery, TermTest>, doc: DocumentMatches): Found {
  const keep = tokenFilter(original, field, tests, doc);
  const text: FieldText = keep === null ? fieldText : { text: fieldText.text, tokens: fieldText.tokens.filter((t) => keep(t.term)) };
  const single = (start: number, end: number, term: string): OffsetMatch => ({ start, end, term, freq: 1 });

  // the tokens by term: a query of thousands of terms looks each up, a pattern tests each distinct term once
  const byTerm = new Map<string, Token[]>();
  for (const token of text.tokens) {
    const list = byTerm.get(token.term);
    if (list === undefined) byTerm.set(token.term, [token]);
    else list.push(token);
  }
  const tokensOf = (tokens: readonly Token[] | undefined, label: string, out: OffsetMatch[]): void => {
    for (const token of tokens ?? []) out.push(single(token.start, token.end, label));
  };
  const termMatches = (term: string): Found => {
    const out: OffsetMatch[] = [];
    tokensOf(byTerm.get(term), term, out);
    return out.length === 0 ? null : out;
  };
  const tokensAccepted = (accepts: TermTest, label: string): Found => {
    const out: OffsetMatch[] = [];
    for (const [term, tokens] of byTerm) if (accepts(term)) tokensOf(tokens, label, out);
    return out.length === 0 ? null : out;
  };

  const phrase = (terms: readonly (readonly string[])[], positions: readonly number[], slop: number): Found => {
    const label = terms.flat().join(' ');
    const found = phraseMatches(text.tokens, { terms, positions, slop }).map(([start, end]) => single(start, end, label));
    return found.length === 0 ? null : found;
  };

  const elsewhere = (q: LQuery): Found => (doc.matches(q) ? [] : null);

  const visit = (q: LQuery): Found => {
    switch (q.type) {
      case 'matchNone':
        return null;
      case 'matchAll':
        return [];
      case 'term':
        return q.field === field ? termMatches(q.term) : elsewhere(q);
      case 'phrase':
        return q.field === field ? phrase(q.terms.map((t) => [t]), q.positions, q.slop) : elsewhere(q);
      case 'multiPhrase':
        return q.field === field ? phrase(q.termArrays, q.positions, q.slop) : elsewhere(q);
      case 'boost':
      case 'constantScore':
        return visit(q.query);
      case 'disMax': {
        let out: Found = null;
        for (const disjunct of q.disjuncts) {
          const m = visit(disjunct);
          if (m !== null) out = out === null ? [...m] : out.concat(m);
        }
        return out;
      }
      case 'bool': {
        // BooleanWeight.matches, of the query as its weight is made without scores (rewriteNoScoring:
        // optional clauses beside required ones are dropped unless minimum_should_match asks for them)
        const out: OffsetMatch[] = [];
        let optional = 0;
        let matched = 0;
        const keepShould = q.minimumShouldMatch > 0 || !q.clauses.some((c) => c.occur === 'must' || c.occur === 'filter');
        for (const clause of q.clauses) {
          if (clause.occur === 'should' && !keepShould) continue;
          const m = visit(clause.query);
          if (clause.occur === 'must_not') {
            if (m !== null) return null;
            continue;
          }
          if (m === null) {
            if (clause.occur !== 'should') return null;
            continue;
          }
          out.push(...m);
          matched++;
          if (clause.occur === 'should') optional++;
        }
        // MatchesUtils.fromSubMatches: no matching clause at all is no match
        return optional < q.minimumShouldMatch || matched === 0 ? null : out;
      }
      case 'leaf': {
        const test = tests.get(q);
        if (test !== undefined && q.terms !== undefined) return q.terms.field === field ? tokensAccepted(test, leafLabel(q)) : elsewhere(q);
        const expanded = doc.expand(q);
        return expanded !== null ? visit(expanded) : elsewhere(q);
      }
    }
  };

  const found = visit(query);
  return found === null ? null : found.sort(byOffsets);
}

/** The order the highlighter reads matches in (OffsetsEnum.compareTo): start, end, then term (UTF-8 order). */
export function byOffsets(a: OffsetMatch, b: OffsetMatch): number {
  return a.start - b.start || a.end - b.end || compareUtf8(a.term, b.term);
}


