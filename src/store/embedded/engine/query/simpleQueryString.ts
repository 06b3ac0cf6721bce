/**
 * `simple_query_string`: the forgiving search-box syntax of Lucene's SimpleQueryParser, as
 * Elasticsearch 8's SimpleQueryStringBuilder runs it: `{"simple_query_string": {"query": "fran* +
 * -guiana | \"south africa\"~1", "fields": ["name^2", "code"], "default_operator": "and"}}`. It
 * never fails on its syntax (queryString/simpleParser.ts scans it once, here); the query is built
 * against the mapping when the search runs (queryString/simpleQuery.ts).
 *
 * Parameters: query (required), fields (default every field, `*`, which makes the query lenient
 * unless `lenient` says otherwise), default_operator, flags (`ALL` by default, `NONE`, or
 * `|`-separated AND, NOT, OR, PREFIX, PHRASE, PRECEDENCE, ESCAPE, WHITESPACE, FUZZY, NEAR, SLOP; or
 * their bits as a number, negative for ALL), lenient, analyze_wildcard, minimum_should_match,
 * quote_field_suffix, fuzzy_prefix_length, fuzzy_max_expansions, fuzzy_transpositions,
 * auto_generate_synonyms_phrase_query (no effect: no synonyms), boost, _name, `analyzer` (in place
 * of the fields' search analyzers, phrases included).
 */
import { describe, hasOwn } from '../json';
import { withBoost } from '../lucene/query';
import { parseFieldsAndWeights } from '../queryString/fields';
import { SimpleFlag, parseSimple } from '../queryString/simpleParser';
import { simpleQuery } from '../queryString/simpleQuery';
import { ClauseParser } from './context';
import { CONSTANT_SCORE } from './leaves';
import { readMinimumShouldMatch } from './minimumShouldMatch';
import { readAnalyzer } from './fullText';
import { at, boostOf, invalid, objectBody, readBoolean, readEnum, readInteger, readName, readScalar, readString } from './params';

const PARAMS = [
  'query', 'fields', 'analyzer', 'default_operator', 'flags', 'lenient', 'analyze_wildcard', 'minimum_should_match', 'quote_field_suffix',
  'auto_generate_synonyms_phrase_query', 'fuzzy_prefix_length', 'fuzzy_max_expansions', 'fuzzy_transpositions', 'boost', '_name',
];

/** SimpleQueryStringFlag.resolveFlags (a string) or the bits themselves (a number; negative is ALL). */
export function readSimpleFlags(value: unknown, where: string): number {
  if (typeof value === 'number') {
    if (!Number.isInteger(value)) throw invalid(`[simple_query_string] "flags" at ${where} must be an integer or a string, got ${describe(value)}`);
    return value < 0 ? SimpleFlag.ALL : value;
  }
  const text = readString('simple_query_string', 'flags', value, where);
  if (text === '') return SimpleFlag.ALL;
  let flags = 0;
  for (const name of text.split('|')) {
    if (name === '') continue;
    const upper = name.toUpperCase();
    const flag = upper === 'SLOP' ? SimpleFlag.NEAR : Object.hasOwn(SimpleFlag, upper) ? SimpleFlag[upper as keyof typeof SimpleFlag] : undefined;
    if (flag === undefined) throw invalid(`Unknown simple_query_string flag [${name}] at ${where}`);
    if (flag === SimpleFlag.NONE || flag === SimpleFlag.ALL) return flag;
    flags |= flag;
  }
  return flags;
}

export const parseSimpleQueryString: ClauseParser = (body, path, ctx) => {
  const obj = objectBody('simple_query_string', body, path);
  for (const key of Object.keys(obj)) if (!PARAMS.includes(key)) throw invalid(`[simple_query_string] unsupported field [${key}] at ${path}`);
  if (!hasOwn(obj, 'query')) throw invalid(`[simple_query_string] query text missing at ${path}`);
  // SimpleQueryStringBuilder: `analyzer` replaces the fields' search analyzers, for phrases too
  const analyzer = readAnalyzer('simple_query_string', obj, path);
  const query = String(readScalar('simple_query_string', 'query', obj.query, at(path, 'query')));
  const opt = <T>(key: string, read: (value: unknown, where: string) => T): T | null => (hasOwn(obj, key) ? read(obj[key], at(path, key)) : null);
  const bool = (key: string) => opt(key, (v, w) => readBoolean('simple_query_string', key, v, w));
  let fields: Map<string, number> | null = null;
  if (hasOwn(obj, 'fields')) {
    if (!Array.isArray(obj.fields)) throw invalid(`[simple_query_string] "fields" at ${at(path, 'fields')} must be an array of strings, got ${describe(obj.fields)}`);
    fields = parseFieldsAndWeights('simple_query_string', obj.fields, at(path, 'fields'));
  }
  const flags = opt('flags', readSimpleFlags) ?? SimpleFlag.ALL;
  bool('auto_generate_synonyms_phrase_query');
  const fuzzy = {
    prefixLength: opt('fuzzy_prefix_length', (v, w) => readInteger('simple_query_string', 'fuzzy_prefix_length', v, w)) ?? 0,
    maxExpansions: opt('fuzzy_max_expansions', (v, w) => readInteger('simple_query_string', 'fuzzy_max_expansions', v, w, 1)) ?? 50,
    transpositions: bool('fuzzy_transpositions') ?? true,
  };
  const boost = boostOf('simple_query_string', obj, path);
  readName('simple_query_string', obj, path);
  const settings = {
    fields,
    operator: opt('default_operator', (v, w) => readEnum('simple_query_string', 'default_operator', v, ['or', 'and'] as const, w)) ?? 'or',
    lenient: bool('lenient'),
    analyzeWildcard: bool('analyze_wildcard') ?? false,
    quoteFieldSuffix: opt('quote_field_suffix', (v, w) => readString('simple_query_string', 'quote_field_suffix', v, w)),
    minimumShouldMatch: opt('minimum_should_match', (v, w) => readMinimumShouldMatch('simple_query_string', v, w)),
    env: { rewrite: CONSTANT_SCORE, timeZone: null, maxDeterminizedStates: null, where: path, analyzer, quoteAnalyzer: analyzer },
    fuzzy,
  } as const;
  const ast = parseSimple(query, flags, ctx.limits);
  return { toLucene: (build) => withBoost(simpleQuery(build, ast, settings), boost) };
};
