/**
 * Typo tolerance: the `fuzzy` query, and `fuzziness` on the full-text queries.
 *
 * `{"fuzzy": {"name": "frnace"}}` or `{"fuzzy": {"name": {"value": "frnace", "fuzziness": "AUTO",
 * "prefix_length": 0, "max_expansions": 50, "transpositions": true, "rewrite":
 * "top_terms_blended_freqs_50", "boost": 1}}}` (`term` is accepted in place of `value`): the terms
 * of the field within the edit distance of the value, which is not analyzed (FuzzyQueryBuilder,
 * StringFieldType.fuzzyQuery). On keyword and text fields; an unmapped field matches nothing; any
 * other type is refused as Elasticsearch does ("Can only use fuzzy queries on keyword and text
 * fields").
 *
 * As Lucene's FuzzyQuery runs it: the value's Levenshtein automaton (automaton/levenshtein.ts, at
 * most 2 edits, transpositions counting as one unless `transpositions` is false, the first
 * `prefix_length` code points exact) is walked over the sorted term dictionary within the search's
 * budget; each term found gets FuzzyTermsEnum's boost, 1 - edits / min(term length, value length)
 * in code points (1 for the value itself); the default rewrite, top_terms_blended_freqs_N with N =
 * `max_expansions` (capped at MAX_CLAUSE_COUNT), keeps the N best terms and scores them with BM25
 * on blended statistics (termsRewrite.ts). `rewrite` may ask for any other MultiTermQuery rewrite
 * (leaves.ts): constant_score matches every term within the distance, whatever max_expansions.
 *
 * `match` and `multi_match` take `fuzziness` with `prefix_length`, `max_expansions`,
 * `fuzzy_transpositions` and `fuzzy_rewrite`: each analyzed token becomes such a fuzzy query
 * (MatchQueryParser.newTermQuery), its distance from the token's length.
 */
import { LevenshteinAutomaton, compileLevenshteinSteps } from '../automaton/levenshtein';
import { toText } from '../fieldValues';
import { JsonObject, hasOwn, isPlainObject } from '../json';
import { LQuery, matchNone, termQuery, withBoost } from '../lucene/query';
import { BuildContext, ClauseParser } from './context';
import { fieldType } from './fieldQueries';
import { AUTO, Fuzziness, editsFor, readFuzziness } from './fuzziness';
import { PatternRewrite, TermBoost, termsAccepted } from './leaves';
import { at, boostOf, checkParams, invalid, readBoolean, readInteger, readName, readScalar, readString, singleField } from './params';
import { lazyPattern, parseRewrite } from './prefix';

const f = Math.fround;

export interface FuzzyOptions {
  readonly fuzziness: Fuzziness;
  readonly prefixLength: number;
  readonly maxExpansions: number;
  readonly transpositions: boolean;
  /** null: FuzzyQuery's default, top_terms_blended_freqs_<max_expansions>. */
  readonly rewrite: PatternRewrite | null;
}

/** Lucene's FuzzyQuery defaults. */
export const DEFAULT_FUZZY: FuzzyOptions = { fuzziness: AUTO, prefixLength: 0, maxExpansions: 50, transpositions: true, rewrite: null };

/** The parameters of `match` and `multi_match` that only matter with fuzziness. */
export const FUZZY_MATCH_PARAMS = ['fuzziness', 'prefix_length', 'max_expansions', 'fuzzy_transpositions', 'fuzzy_rewrite'];

/** FuzzyTermsEnum's boost of a term: 1 - edits / min(term length, value length), in float. */
export const fuzzyBoost: TermBoost = (automaton, term) => {
  const lev = automaton as LevenshteinAutomaton;
  const edits = lev.distance(term);
  if (edits <= 0) return 1;
  let length = 0;
  for (const _ of term) length++;
  return f(1 - f(edits / Math.min(length, lev.wordLength)));
};

/**
 * The fuzzy query of `value` on a field (StringFieldType.fuzzyQuery): throws InvalidQueryError on
 * a field that is neither text nor keyword.
 */
export function fuzzyQuery(ctx: BuildContext, field: string, value: string, options: FuzzyOptions, where: string): LQuery {
  const type = fieldType(ctx, field);
  if (type === undefined) return matchNone(`unmapped field ${field}`);
  if (type !== 'text' && type !== 'keyword') {
    throw invalid(`Can only use fuzzy queries on keyword and text fields - not on [${field}] which is of type [${type === 'id' ? '_id' : type}] (at ${where})`);
  }
  // StringFieldType.fuzzyQuery: indexedValueForSearch, a keyword field's normalizer applied
  if (type === 'keyword') value = ctx.mapping.normalizeKeyword(field, value);
  const maxEdits = editsFor(options.fuzziness, value);
  const rewrite = options.rewrite ?? { kind: 'top_terms_blended', size: options.maxExpansions };
  // the value alone: the term query every scoring rewrite makes of one term of boost 1
  if (maxEdits === 0 && (rewrite.kind === 'top_terms_blended' || rewrite.kind === 'scoring_boolean' || (rewrite.kind === 'top_terms' && !rewrite.boostOnly))) return termQuery(field, value);
  const { limits } = ctx;
  const key = `fuzzy:${JSON.stringify([value, maxEdits, options.prefixLength, options.transpositions])}`;
  const levenshtein = { maxEdits, prefixLength: options.prefixLength, transpositions: options.transpositions, maxStates: limits.maxDeterminizedStates };
  const automaton = lazyPattern(`${key}:${limits.maxDeterminizedStates}`, (budget) => compileLevenshteinSteps(value, levenshtein, budget));
  return termsAccepted(field, key, automaton, rewrite, limits.maxClauseCount, fuzzyBoost);
}

/** The fuzziness parameters of a `match`-like clause body; null without `fuzziness`. */
export function readFuzzyParams(clause: string, obj: JsonObject, where: string): FuzzyOptions | null {
  const prefixLength = hasOwn(obj, 'prefix_length') ? readInteger(clause, 'prefix_length', obj.prefix_length, at(where, 'prefix_length')) : 0;
  const maxExpansions = hasOwn(obj, 'max_expansions') ? readInteger(clause, 'max_expansions', obj.max_expansions, at(where, 'max_expansions'), 1) : 50;
  const transpositions = hasOwn(obj, 'fuzzy_transpositions') ? readBoolean(clause, 'fuzzy_transpositions', obj.fuzzy_transpositions, at(where, 'fuzzy_transpositions')) : true;
  const rewrite = hasOwn(obj, 'fuzzy_rewrite') ? parseRewrite(clause, readString(clause, 'fuzzy_rewrite', obj.fuzzy_rewrite, at(where, 'fuzzy_rewrite')), at(where, 'fuzzy_rewrite')) : null;
  if (!hasOwn(obj, 'fuzziness')) return null;
  return { fuzziness: readFuzziness(clause, obj.fuzziness, at(where, 'fuzziness')), prefixLength, maxExpansions, transpositions, rewrite };
}

export const parseFuzzy: ClauseParser = (body, path) => {
  const [field, raw] = singleField('fuzzy', body, path);
  const where = at(path, field);
  let value: unknown = raw;
  let valueWhere = where;
  let options = DEFAULT_FUZZY;
  let boost = 1;
  if (isPlainObject(raw)) {
    checkParams('fuzzy', raw, ['value', 'term', 'fuzziness', 'prefix_length', 'max_expansions', 'transpositions', 'rewrite', 'boost', '_name'], where);
    const key = hasOwn(raw, 'value') ? 'value' : hasOwn(raw, 'term') ? 'term' : undefined;
    if (key === undefined) throw invalid(`[fuzzy] at ${where} needs a "value"`);
    value = raw[key];
    valueWhere = at(where, key);
    options = {
      fuzziness: hasOwn(raw, 'fuzziness') ? readFuzziness('fuzzy', raw.fuzziness, at(where, 'fuzziness')) : AUTO,
      prefixLength: hasOwn(raw, 'prefix_length') ? readInteger('fuzzy', 'prefix_length', raw.prefix_length, at(where, 'prefix_length')) : 0,
      maxExpansions: hasOwn(raw, 'max_expansions') ? readInteger('fuzzy', 'max_expansions', raw.max_expansions, at(where, 'max_expansions'), 1) : 50,
      transpositions: hasOwn(raw, 'transpositions') ? readBoolean('fuzzy', 'transpositions', raw.transpositions, at(where, 'transpositions')) : true,
      rewrite: hasOwn(raw, 'rewrite') ? parseRewrite('fuzzy', readString('fuzzy', 'rewrite', raw.rewrite, at(where, 'rewrite')), at(where, 'rewrite')) : null,
    };
    boost = boostOf('fuzzy', raw, where);
    readName('fuzzy', raw, where);
  }
  const text = toText(readScalar('fuzzy', 'value', value, valueWhere)) as string;
  return { toLucene: (ctx) => withBoost(fuzzyQuery(ctx, field, text, options, where), boost) };
};
