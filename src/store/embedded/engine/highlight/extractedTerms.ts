/**
 * The matches of a query in the highlighted field when `require_field_match` is false: the unified
 * highlighter's classic mode (Elasticsearch turns WEIGHT_MATCHES off then), in which the query's terms,
 * whatever field they were asked on, are looked for in the highlighted text:
 *
 * - terms: every term of the query except under a prohibited clause (UnifiedHighlighter.extractTerms);
 *   each occurrence is a match, counting the term's frequency in the whole text;
 * - phrases are highlighted strictly (PhraseHelper): their terms only where the phrase, as a
 *   SpanNearQuery on the highlighted field, matches (phraseSpans.ts), each counting how often it is
 *   found so; a term also asked for outside a phrase is then highlighted everywhere;
 * - patterns and term sets (MultiTermHighlighting's automata): each accepted token is a match, all of
 *   one pattern counting as one term, its frequency the sum of theirs.
 */
import { Budget, CHECK_EVERY, Steps, UNLIMITED, runToEnd } from '../budget/budget';
import { LQuery, LeafQuery } from '../lucene/query';
import { TermTest, leafLabel } from './leafTests';
import { OffsetMatch } from './passages';
import { PositionalPhrase, phraseTermPositionsSteps } from './phraseSpans';
import { sortSteps } from './sortSteps';
import { FieldText } from './tokens';
import { acceptedTerms, byOffsets } from './weightMatches';

interface Extracted {
  /** Terms of term queries and phrases (extractTerms). */
  readonly all: Set<string>;
  /** Terms of the term queries (PhraseHelper's position-insensitive terms: WeightedSpanTermExtractor reads TermQuery's only). */
  readonly insensitive: Set<string>;
  readonly phrases: PositionalPhrase[];
  readonly automata: LeafQuery[];
}

/** The ids field's terms are never looked for (Elasticsearch's field matcher leaves `_id` out). */
const ID_FIELD = '_id';

/** The query a leaf expanded at search time stands for in this document (match_phrase_prefix), or null. */
export type Expand = (leaf: LeafQuery) => LQuery | null;

function extract(query: LQuery, tests: ReadonlyMap<LeafQuery, TermTest>, out: Extracted, expand: Expand): void {
  switch (query.type) {
    case 'term':
      if (query.field === ID_FIELD) return;
      out.all.add(query.term);
      out.insensitive.add(query.term);
      return;
    case 'phrase':
    case 'multiPhrase': {
      const terms = query.type === 'phrase' ? query.terms.map((t) => [t]) : query.termArrays;
      for (const list of terms) for (const t of list) out.all.add(t);
      out.phrases.push({ terms, positions: query.positions, slop: query.slop });
      return;
    }
    case 'combinedField':
      // CombinedFieldQuery.visit: its terms (on every field)
      for (const term of query.terms) {
        out.all.add(term);
        out.insensitive.add(term);
      }
      return;
    case 'boost':
    case 'constantScore':
    case 'functionScore':
      extract(query.query, tests, out, expand);
      return;
    case 'bool':
      for (const clause of query.clauses) if (clause.occur !== 'must_not') extract(clause.query, tests, out, expand);
      return;
    case 'disMax':
      for (const disjunct of query.disjuncts) extract(disjunct, tests, out, expand);
      return;
    case 'leaf': {
      const terms = query.terms;
      if (terms === undefined) {
        const expanded = expand(query);
        if (expanded !== null) extract(expanded, tests, out, expand);
        return;
      }
      if (!tests.has(query)) return;
      // a set of one term is that term (but not one of the TermQuery terms PhraseHelper keeps beside
      // phrases); any other (a pattern, a larger set) an automaton
      if (terms.terms !== undefined && terms.terms.length === 1) {
        out.all.add(terms.terms[0]);
      } else {
        out.automata.push(query);
      }
      return;
    }
    default:
      return;
  }
}

export function* extractedMatchesSteps(query: LQuery, text: FieldText, tests: ReadonlyMap<LeafQuery, TermTest>, expand: Expand, budget: Budget): Steps<OffsetMatch[]> {
  const found: Extracted = { all: new Set(), insensitive: new Set(), phrases: [], automata: [] };
  extract(query, tests, found, expand);
  const strings = text.terms.list(); // (a copy: the dictionary of one field value)
  const ids = (terms: Iterable<string>): Uint8Array => {
    const marked = new Uint8Array(strings.length);
    for (const term of terms) {
      const id = text.terms.get(term);
      if (id >= 0) marked[id] = 1;
    }
    return marked;
  };
  // each term's frequency in the whole text
  const freqs = new Int32Array(strings.length);
  for (let i = 0; i < text.size; i++) freqs[text.term[i]]++;
  const out: OffsetMatch[] = [];
  // position-insensitive terms: all of them, or only those outside phrases when there are phrases
  const insensitive = ids(found.phrases.length > 0 ? found.insensitive : found.all);
  for (let i = 0; i < text.size; i++) {
    const id = text.term[i];
    if (insensitive[id] === 1) out.push({ start: text.start[i], end: text.end[i], term: strings[id], freq: freqs[id] });
    if ((i & CHECK_EVERY) === CHECK_EVERY && budget.due()) yield;
  }
  if (found.phrases.length > 0) {
    const inSpans = new Set<number>();
    for (const phrase of found.phrases) for (const p of yield* phraseTermPositionsSteps(text, phrase, budget)) inSpans.add(p);
    const phraseTerms = ids(found.phrases.flatMap((p) => p.terms.flat()));
    const alone = ids(found.insensitive);
    const collected: number[] = [];
    for (let i = 0; i < text.size; i++) {
      const id = text.term[i];
      if (phraseTerms[id] === 1 && alone[id] === 0 && inSpans.has(text.position[i])) collected.push(i);
      if ((i & CHECK_EVERY) === CHECK_EVERY && budget.due()) yield;
    }
    // a term's frequency is how often it was collected in the spans (SpanCollectedOffsetsEnum.freq)
    const inSpanFreqs = new Int32Array(strings.length);
    for (const i of collected) inSpanFreqs[text.term[i]]++;
    for (const i of collected) out.push({ start: text.start[i], end: text.end[i], term: strings[text.term[i]], freq: inSpanFreqs[text.term[i]] });
  }
  for (const leaf of found.automata) {
    // each distinct term tested once
    const accepted = yield* acceptedTerms(text, tests.get(leaf) as TermTest, budget);
    let count = 0;
    for (let i = 0; i < text.size; i++) count += accepted[text.term[i]];
    const label = leafLabel(leaf);
    for (let i = 0; i < text.size; i++) {
      if (accepted[text.term[i]] === 1) out.push({ start: text.start[i], end: text.end[i], term: label, freq: count });
      if ((i & CHECK_EVERY) === CHECK_EVERY && budget.due()) yield;
    }
  }
  return yield* sortSteps(out, byOffsets, budget);
}

/** extractedMatchesSteps run at once. */
export function extractedMatches(query: LQuery, text: FieldText, tests: ReadonlyMap<LeafQuery, TermTest>, expand: Expand = () => null): OffsetMatch[] {
  return runToEnd(extractedMatchesSteps(query, text, tests, expand, UNLIMITED));
}
