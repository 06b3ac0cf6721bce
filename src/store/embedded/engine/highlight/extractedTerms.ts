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
import { LQuery, LeafQuery } from '../lucene/query';
import { TermTest, leafLabel } from './leafTests';
import { OffsetMatch } from './passages';
import { PositionalPhrase, phraseTermPositions } from './phraseSpans';
import { FieldText } from './tokens';
import { byOffsets } from './weightMatches';

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
    case 'boost':
    case 'constantScore':
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

export function extractedMatches(query: LQuery, text: FieldText, tests: ReadonlyMap<LeafQuery, TermTest>, expand: Expand = () => null): OffsetMatch[] {
  const found: Extracted = { all: new Set(), insensitive: new Set(), phrases: [], automata: [] };
  extract(query, tests, found, expand);
  const tokens = text.tokens;
  const freqs = new Map<string, number>();
  for (const token of tokens) freqs.set(token.term, (freqs.get(token.term) ?? 0) + 1);
  const out: OffsetMatch[] = [];
  // position-insensitive terms: all of them, or only those outside phrases when there are phrases
  const insensitive = found.phrases.length > 0 ? found.insensitive : found.all;
  for (const token of tokens) if (insensitive.has(token.term)) out.push({ start: token.start, end: token.end, term: token.term, freq: freqs.get(token.term) as number });
  if (found.phrases.length > 0) {
    const inSpans = new Set<number>();
    for (const phrase of found.phrases) for (const p of phraseTermPositions(tokens, phrase)) inSpans.add(p);
    const phraseTerms = new Set(found.phrases.flatMap((p) => p.terms.flat()));
    const collected = tokens.filter((t) => inSpans.has(t.position) && phraseTerms.has(t.term) && !found.insensitive.has(t.term));
    // a term's frequency is how often it was collected in the spans (SpanCollectedOffsetsEnum.freq)
    const inSpanFreqs = new Map<string, number>();
    for (const token of collected) inSpanFreqs.set(token.term, (inSpanFreqs.get(token.term) ?? 0) + 1);
    for (const token of collected) out.push({ start: token.start, end: token.end, term: token.term, freq: inSpanFreqs.get(token.term) as number });
  }
  for (const leaf of found.automata) {
    const accepts = tests.get(leaf) as TermTest;
    // each distinct term tested once
    const acceptedTerms = new Set([...freqs.keys()].filter((term) => accepts(term)));
    const accepted = tokens.filter((t) => acceptedTerms.has(t.term));
    const label = leafLabel(leaf);
    for (const token of accepted) out.push({ start: token.start, end: token.end, term: label, freq: accepted.length });
  }
  return out.sort(byOffsets);
}
