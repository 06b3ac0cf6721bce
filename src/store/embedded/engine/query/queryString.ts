/**
 * `query_string`: Lucene's classic query syntax, as Elasticsearch 8's QueryStringQueryBuilder runs
 * it: `{"query_string": {"query": "name:(fran* OR \"south africa\") AND -code:ZA", "default_field":
 * "name"}}` or with `fields: ["name^2", "code*"]`. The syntax (queryString/classicParser.ts) is read
 * here, so that a syntax error is a 400 before anything runs ("Failed to parse query [...]" with
 * Lucene's ParseException, which names the column); the query is built against the mapping when
 * the search runs (queryString/classicQuery.ts).
 *
 * Parameters: query (required), default_field, fields (not both), default_operator, type
 * (best_fields, most_fields, phrase), tie_breaker, phrase_slop, quote_field_suffix,
 * allow_leading_wildcard (default true), analyze_wildcard, lenient, minimum_should_match, rewrite,
 * max_determinized_states, time_zone, escape, fuzziness, fuzzy_prefix_length,
 * fuzzy_max_expansions, fuzzy_transpositions, fuzzy_rewrite (read, without effect, as in
 * Elasticsearch), enable_position_increments (false: a phrase's terms at consecutive positions, the
 * gaps of removed stop words closed), auto_generate_synonyms_phrase_query (no effect: no synonyms),
 * boost, _name, `analyzer` (in place of the fields' search analyzers) and `quote_analyzer` (for
 * phrases; `analyzer` when not given).
 */
import { parseTimeZone } from '../dates';
import { describe, hasOwn } from '../json';
import { withBoost } from '../lucene/query';
import { ParseError, QueryNode, parseClassic } from '../queryString/classicParser';
import { ClassicSettings, classicQuery } from '../queryString/classicQuery';
import { parseFieldsAndWeights } from '../queryString/fields';
import { TextType } from '../queryString/perField';
import { ClauseParser } from './context';
import { CONSTANT_SCORE, PatternRewrite } from './leaves';
import { AUTO, editsFor, readFuzziness } from './fuzziness';
import { readMinimumShouldMatch } from './minimumShouldMatch';
import { at, boostOf, checkParams, invalid, objectBody, readBoolean, readEnum, readInteger, readName, readNumber, readScalar, readString } from './params';
import { parseRewrite } from './prefix';
import { readAnalyzer } from './fullText';

const PARAMS = [
  'query', 'default_field', 'fields', 'default_operator', 'analyzer', 'quote_analyzer', 'allow_leading_wildcard', 'max_determinized_states',
  'enable_position_increments', 'escape', 'fuzzy_prefix_length', 'fuzzy_max_expansions', 'fuzzy_rewrite', 'phrase_slop', 'fuzziness', 'boost',
  'type', 'tie_breaker', 'analyze_wildcard', 'rewrite', 'minimum_should_match', 'quote_field_suffix', 'lenient', 'time_zone', '_name',
  'auto_generate_synonyms_phrase_query', 'fuzzy_transpositions',
];

const TYPES = ['best_fields', 'most_fields', 'cross_fields', 'phrase', 'phrase_prefix', 'bool_prefix'] as const;

/** QueryParser.escape: every character of the syntax preceded by `\`. */
export function escapeQueryString(text: string): string {
  return text.replace(/[\\+\-!():^[\]"{}~*?|&/]/g, '\\$&');
}

const optional = <T>(obj: Record<string, unknown>, key: string, read: (value: unknown, where: string) => T, where: string): T | null =>
  hasOwn(obj, key) ? read(obj[key], at(where, key)) : null;

export const parseQueryString: ClauseParser = (body, path, ctx) => {
  const obj = objectBody('query_string', body, path);
  checkParams('query_string', obj, PARAMS, path);
  if (!hasOwn(obj, 'query')) throw invalid(`[query_string] must be provided with a [query] at ${path}`);
  const query = String(readScalar('query_string', 'query', obj.query, at(path, 'query')));
  // QueryStringQueryBuilder: `analyzer` replaces the fields' search analyzers, `quote_analyzer` (else `analyzer`) their search_quote_analyzer
  const analyzer = readAnalyzer('query_string', obj, path);
  const quoteAnalyzer = readAnalyzer('query_string', obj, path, 'quote_analyzer') ?? analyzer;
  const str = (value: unknown, where: string) => readString('query_string', where.slice(where.lastIndexOf('.') + 1), value, where);
  const bool = (name: string) => optional(obj, name, (v, w) => readBoolean('query_string', name, v, w), path);
  const int = (name: string, min = 0) => optional(obj, name, (v, w) => readInteger('query_string', name, v, w, min), path);

  const defaultField = optional(obj, 'default_field', str, path);
  let fields: Map<string, number> | null = null;
  if (hasOwn(obj, 'fields')) {
    if (!Array.isArray(obj.fields)) throw invalid(`[query_string] "fields" at ${at(path, 'fields')} must be an array of strings, got ${describe(obj.fields)}`);
    fields = parseFieldsAndWeights('query_string', obj.fields, at(path, 'fields'));
  }
  if (fields !== null && fields.size > 0 && defaultField !== null) throw invalid(`[query_string] cannot use [fields] parameter in conjunction with [default_field] at ${path}`);
  const type: TextType = optional(obj, 'type', (v, w) => readEnum('query_string', 'type', v, TYPES, w), path) ?? 'best_fields';
  const tieBreaker = optional(obj, 'tie_breaker', (v, w) => Math.fround(readNumber('query_string', 'tie_breaker', v, w)), path);
  const rewrite: PatternRewrite = optional(obj, 'rewrite', (v, w) => parseRewrite('query_string', str(v, w), w), path) ?? CONSTANT_SCORE;
  if (hasOwn(obj, 'fuzzy_rewrite')) parseRewrite('query_string', str(obj.fuzzy_rewrite, at(path, 'fuzzy_rewrite')), at(path, 'fuzzy_rewrite'));
  const maxDeterminizedStates = int('max_determinized_states', 1);
  if (maxDeterminizedStates !== null && maxDeterminizedStates > ctx.limits.maxDeterminizedStates) {
    throw invalid(`[query_string] "max_determinized_states" at ${at(path, 'max_determinized_states')} may not exceed ${ctx.limits.maxDeterminizedStates} (MAX_DETERMINIZED_STATES)`);
  }
  const timeZone = optional(obj, 'time_zone', (v, w) => parseTimeZone(str(v, w), w), path);
  const minimumShouldMatch = optional(obj, 'minimum_should_match', (v, w) => readMinimumShouldMatch('query_string', v, w), path);
  bool('auto_generate_synonyms_phrase_query');
  const positionIncrements = bool('enable_position_increments') ?? true;
  const fuzzy = { prefixLength: int('fuzzy_prefix_length') ?? 0, maxExpansions: int('fuzzy_max_expansions', 1) ?? 50, transpositions: bool('fuzzy_transpositions') ?? true };
  const fuzziness = optional(obj, 'fuzziness', (v, w) => readFuzziness('query_string', v, w), path) ?? AUTO;
  // QueryStringQueryParser.getFuzzyDistance: `~` alone is `fuzziness`, `~N` Fuzziness.fromString(N), as edits for the term
  const fuzzyDistance = (image: string, term: string) => editsFor(image === '~' ? fuzziness : readFuzziness('query_string', image.slice(1), `${path} (${image} in the query)`), term);
  const boost = boostOf('query_string', obj, path);
  readName('query_string', obj, path);

  const settings: ClassicSettings = {
    defaultField,
    fields,
    operator: optional(obj, 'default_operator', (v, w) => readEnum('query_string', 'default_operator', v, ['or', 'and'] as const, w), path) ?? 'or',
    type,
    tieBreaker,
    phraseSlop: int('phrase_slop') ?? 0,
    quoteFieldSuffix: optional(obj, 'quote_field_suffix', str, path),
    allowLeadingWildcard: bool('allow_leading_wildcard') ?? true,
    analyzeWildcard: bool('analyze_wildcard') ?? false,
    lenient: bool('lenient'),
    minimumShouldMatch,
    env: { rewrite, timeZone, where: path, maxDeterminizedStates, analyzer, quoteAnalyzer, positionIncrements },
    fuzzy,
  };
  const text = bool('escape') === true ? escapeQueryString(query) : query;
  const failed = (err: unknown) => (err instanceof ParseError ? invalid(`[query_string] Failed to parse query [${query}]: ${err.message} (at ${path})`) : err);
  let ast: QueryNode | null = null;
  // QueryStringQueryParser.parse: a blank query string matches nothing
  // eslint-disable-next-line no-control-regex
  if (text.replace(/^[\x00-\x20]+|[\x00-\x20]+$/g, '') !== '') {
    try {
      ast = parseClassic(text, {
        limits: ctx.limits,
        fuzzyDistance,
      });
    } catch (err) {
      throw failed(err);
    }
  }
  return {
    toLucene(build) {
      try {
        return withBoost(classicQuery(build, ast, settings), boost);
      } catch (err) {
        // a ParseException thrown while building (a leading wildcard where they are not allowed)
        throw err instanceof ParseError ? failed(new ParseError(`Cannot parse '${text}': ${err.message}`)) : err;
      }
    },
  };
};
