/**
 * The highlighting of a page of hits (Elasticsearch's HighlightPhase, run on the returned hits only):
 *
 * - `fields` are resolved against the index's mapping once per search: a name with `*` takes every
 *   mapped text and keyword field it matches (Regex.simpleMatch), a plain name its field whatever its
 *   type (only text and keyword fields have terms to highlight; the others can only give
 *   `no_match_size` summaries), an unmapped name nothing. A field named twice keeps its first place
 *   and the last options.
 * - The query highlighted is the field's `highlight_query`, else the search's query: the client's
 *   own, never the tenant filter the gateway adds (Elasticsearch would highlight the filter's terms in
 *   `allowTenantIds`; the Elasticsearch store sends the client's query as `highlight_query` for the
 *   same answer, ../../elasticsearch/searchBody.ts).
 * - Values come from the document's source (as Elasticsearch's value fetchers read it, whatever
 *   `_source` filtering the hits have), through the mapping: a text field's strings, a keyword field's
 *   values up to ignore_above, `.keyword` sub-fields from their parent.
 * - Clauses the highlighter must ask the document about (a clause on another field, a range, `exists`:
 *   they decide whether the rest of the query matches, and highlight nothing) are answered from the
 *   search's own index, each clause evaluated once per search and then looked up for each hit: as
 *   Elasticsearch asks them of the shard's reader, with only the highlighted field replaced by its
 *   text analyzed again (OverlaySingleDocTermsLeafReader). A query expanded at search time
 *   (match_phrase_prefix, cross_fields) is expanded against the hit's document alone, indexed by
 *   itself when first needed.
 * - Work runs within the search's budget, as steps that check it every thousand tokens, terms,
 *   matches or characters of work (tokens.ts, weightMatches.ts, passages.ts, formatter.ts...): a field
 *   of 1,000,000 characters is highlighted over many slices, the event loop given back between them;
 *   past the deadline, the hits not highlighted yet stay without (`timed_out`).
 */
import { Doc } from '../../../port';
import { Budget, Steps } from '../budget/budget';
import { simpleMatch, isSimpleMatchPattern } from '../glob';
import { InvertedIndex } from '../invertedIndex';
import { QueryLimits, tooManyClauses } from '../limits';
import { evaluateSteps } from '../lucene/evaluate';
import { Matches } from '../lucene/matches';
import { LQuery, LeafQuery, countClauses } from '../lucene/query';
import { rewrite } from '../lucene/rewrite';
import { IndexMapping } from '../mapping';
import { BuildContext, ParsedQuery } from '../query/context';
import { extractedMatchesSteps } from './extractedTerms';
import { FieldSpec, highlightFieldSteps } from './fieldHighlighter';
import { TermTest, leafTests } from './leafTests';
import { Highlight } from './options';
import { OffsetMatch } from './passages';
import { Analysis, FieldText } from './tokens';
import { Analyzer, STANDARD } from '../analysis/analyzers';

/** A text field's analysis for the highlighter: its index analyzer ('standard' takes the fast path). */
const highlightAnalysis = (analyzer: Analyzer): Analysis => (analyzer === STANDARD ? 'standard' : analyzer);
import { DocumentMatches, weightMatchesSteps } from './weightMatches';

interface CompiledQuery {
  /** As built: the highlighter extracts its terms. */
  readonly original: LQuery;
  /** Rewritten: its matches are read (WEIGHT_MATCHES). */
  readonly query: LQuery;
  readonly tests: Map<LeafQuery, TermTest>;
}

interface ResolvedField extends FieldSpec {
  readonly compiled: CompiledQuery;
}

/** Whether the query has terms (or something unknown) the highlighter may find in `field`, else it does nothing there (NoOpOffsetStrategy). */
function mayMatch(query: LQuery, accepts: (field: string) => boolean): boolean {
  switch (query.type) {
    case 'matchAll':
      return true;
    case 'term':
    case 'phrase':
    case 'multiPhrase':
      return accepts(query.field);
    case 'combinedField':
      return query.fields.some((f) => accepts(f.field));
    case 'leaf':
      // a leaf expanded at search time (match_phrase_prefix) may have terms anywhere
      return query.terms !== undefined ? accepts(query.terms.field) : query.expand !== undefined;
    case 'boost':
    case 'constantScore':
    case 'functionScore':
      return mayMatch(query.query, accepts);
    case 'bool':
      return query.clauses.some((c) => c.occur !== 'must_not' && mayMatch(c.query, accepts));
    case 'disMax':
      return query.disjuncts.some((d) => mayMatch(d, accepts));
    default:
      return false;
  }
}

export class PageHighlighter {
  private readonly fields: ResolvedField[] = [];
  /** The documents of the search's index each clause asked about matches (null: none). */
  private readonly answers = new Map<LQuery, Matches | null>();

  private constructor(
    private readonly mapping: IndexMapping,
    private readonly limits: QueryLimits,
    private readonly index: InvertedIndex,
    /** The nested field whose objects the hits are (a nested query's inner hits: nested/innerHits.ts), null for documents. */
    private readonly nestedPath: string | null,
  ) {}

  /**
   * The highlighter of one search over `index` (the index the hits come from): fields resolved, queries
   * built and their patterns compiled within the budget.
   */
  static *create(highlight: Highlight, query: ParsedQuery | null, mapping: IndexMapping, now: number, limits: QueryLimits, index: InvertedIndex, budget: Budget, nestedPath: string | null = null): Steps<PageHighlighter> {
    const out = new PageHighlighter(mapping.copy(), limits, index, nestedPath);
    const ctx: BuildContext = nestedPath === null ? { mapping, now, limits } : { mapping, now, limits, nestedPath };
    const compiled = new Map<ParsedQuery | null, CompiledQuery>();
    const byName = new Map<string, ResolvedField>();
    const names = mapping.fieldNames();
    for (const field of highlight.fields) {
      const parsed = field.options.highlightQuery ?? query;
      let built = compiled.get(parsed);
      if (built === undefined) {
        const lucene = parsed === null ? { type: 'matchAll' as const } : parsed.toLucene(ctx);
        if (countClauses(lucene) > limits.maxClauseCount) throw tooManyClauses(limits.maxClauseCount);
        const rewritten = rewrite(lucene);
        const tests = yield* leafTests(lucene, budget);
        built = { original: lucene, query: rewritten, tests: yield* leafTests(rewritten, budget, tests) };
        compiled.set(parsed, built);
      }
      const matched = isSimpleMatchPattern(field.pattern)
        ? names.filter((name) => {
            const type = mapping.type(name);
            return (type === 'text' || type === 'keyword') && simpleMatch(field.pattern, name);
          })
        : mapping.type(field.pattern) === undefined
          ? []
          : [field.pattern];
      for (const name of matched) {
        const analysis: Analysis = mapping.type(name) === 'text' ? highlightAnalysis(mapping.analyzersOf(name).index) : mapping.isLowercased(name) ? 'lowercase' : 'keyword';
        byName.set(name, { name, analysis, options: field.options, compiled: built });
      }
    }
    out.fields.push(...byName.values());
    return out;
  }

  get isEmpty(): boolean {
    return this.fields.length === 0;
  }

  /** The values of the highlighted fields in a document, as the mapping indexes them. */
  private valuesOf(source: Doc): Map<string, string[]> {
    const wanted = new Set(this.fields.map((f) => f.name));
    const values = new Map<string, string[]>();
    const sink = (field: string, type: string, value: string | number | boolean) => {
      if (!wanted.has(field)) return;
      const text = type === 'date' ? new Date(value as number).toISOString() : String(value);
      const list = values.get(field);
      if (list === undefined) values.set(field, [text]);
      else list.push(text);
    };
    if (this.nestedPath === null) this.mapping.walk(source, sink);
    else this.mapping.walkNested(source, this.nestedPath, sink);
    return values;
  }

  /** Whether document `doc` of the search's index matches `query` (evaluated once per search, within the budget). */
  private *matchesIn(query: LQuery, doc: number, budget: Budget): Steps<boolean> {
    let answer = this.answers.get(query);
    if (answer === undefined) {
      answer = yield* evaluateSteps(query, this.index, 1, false, budget);
      this.answers.set(query, answer);
    }
    return answer !== null && answer.has(doc);
  }

  /** The highlight of hit `doc` of the search's index (field -> fragments), or undefined when no field has any, within the budget. */
  *hit(doc: number, id: string, source: Doc, budget: Budget): Steps<Record<string, string[]> | undefined> {
    const values = this.valuesOf(source);
    let single: InvertedIndex | null = null;
    const documentMatches: DocumentMatches = {
      matches: (q) => this.matchesIn(q, doc, budget),
      expand: (leaf) => {
        single ??= this.singleDocument(id, source);
        return leaf.expand?.(single) ?? null;
      },
    };
    let out: Record<string, string[]> | undefined;
    for (const field of this.fields) {
      const fieldValues = values.get(field.name);
      if (fieldValues === undefined) continue;
      const { original, query, tests } = field.compiled;
      const weighted = field.options.requireFieldMatch;
      const accepts = weighted ? (f: string) => f === field.name : (f: string) => f !== '_id';
      const matchesIn = !mayMatch(original, accepts)
        ? null
        : weighted
          ? function* (text: FieldText, budget: Budget): Steps<OffsetMatch[]> {
              return (yield* weightMatchesSteps(original, query, field.name, text, tests, documentMatches, budget)) ?? [];
            }
          : (text: FieldText, budget: Budget): Steps<OffsetMatch[]> => extractedMatchesSteps(original, text, tests, documentMatches.expand, budget);
      const fragments = yield* highlightFieldSteps(fieldValues, field, { id, indexMaxAnalyzedOffset: this.limits.maxAnalyzedOffset, matchesIn }, budget);
      if (fragments !== null) {
        out ??= {};
        Object.defineProperty(out, field.name, { value: fragments, enumerable: true, writable: true, configurable: true });
      }
      if (budget.due()) yield;
    }
    return out;
  }

  /** The document alone in an index (what the highlighter's Weight.matches reads the other fields from). */
  private singleDocument(id: string, source: Doc): InvertedIndex {
    const index = new InvertedIndex(false);
    if (this.nestedPath === null) index.addSource(id, source, this.mapping);
    else index.addNested(id, source, this.nestedPath, this.mapping);
    return index;
  }
}
