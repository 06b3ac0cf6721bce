/**
 * `intervals` (Elasticsearch 8's IntervalQueryBuilder and IntervalsSourceProvider): documents where
 * terms appear in a given order, proximity or containment, `{"intervals": {"body": {"all_of":
 * {"ordered": true, "max_gaps": 3, "intervals": [{"match": {"query": "quick fox"}}, {"any_of":
 * {"intervals": [{"prefix": {"prefix": "jump"}}, {"fuzzy": {"term": "leep"}}]}}], "filter":
 * {"not_containing": {"match": {"query": "lazy"}}}}}, "boost": 2}}}`.
 *
 * The rules, as Elasticsearch turns them into Lucene IntervalsSources (intervals/sources.ts):
 * - `match` (`query`, `max_gaps` -1, `ordered` false, `analyzer`, `filter`, `use_field`): the text
 *   analyzed (IntervalBuilder): no token matches nothing, one a term, several combined (ordered
 *   with no gap: a phrase; else ordered or unordered, within max_gaps unless -1);
 * - `prefix` (`prefix`), `wildcard` (`pattern`), `fuzzy` (`term`, `prefix_length` 0,
 *   `transpositions` true, `fuzziness` AUTO): normalized by the analyzer (lowercased, for the
 *   analyzers that lowercase), the terms of the field they accept, at most MAX_CLAUSE_COUNT of them;
 *   with `analyzer`, `use_field`;
 * - `all_of` (`intervals`, `ordered`, `max_gaps`, `filter`) combined as `match` combines tokens,
 *   `any_of` (`intervals`, `filter`) their disjunction;
 * - `filter`: one of `containing`, `not_containing`, `contained_by`, `not_contained_by`,
 *   `overlapping`, `not_overlapping`, `before`, `after`, holding one rule; `script` is refused (as
 *   every script).
 * `use_field` reads that field's terms instead (Intervals.fixField). The query field (or a
 * use_field) unmapped matches nothing; a field that is not `text` is a 400 ("Can only use interval
 * queries on text fields"). Scored as Lucene's IntervalQuery: boost * S / (S + 1), S the sloppy
 * frequency of the intervals found (lucene/intervalQuery.ts).
 */
import { compilePrefix, compileWildcardSteps } from '../automaton';
import { compileLevenshteinSteps } from '../automaton/levenshtein';
import { analyzerByName } from '../analysis';
import { cjkWidth } from '../analysis/cjk';
import { lowerCase } from '../analysis/lowerCase';
import { JsonObject, describe, hasOwn, isPlainObject } from '../json';
import { LQuery, matchNone, withBoost } from '../lucene/query';
import {
  ExtendedSource,
  IntervalsSource,
  MultiTermSource,
  NoIntervalsSource,
  TermSource,
  after,
  before,
  combineSources,
  containedBy,
  containing,
  nonOverlapping,
  notContainedBy,
  notContaining,
  or,
  overlapping,
} from '../intervals/sources';
import { BuildContext, ClauseParser } from './context';
import { fieldType } from './fieldQueries';
import { Fuzziness, AUTO, editsFor, readFuzziness } from './fuzziness';
import { at, boostOf, checkParams, invalid, readBoolean, readInteger, readName, readString } from './params';
import { lazyAutomaton, atOnce } from './patternCache';
import { lazyPattern } from './prefix';

const CLAUSE = 'intervals';
const RULES = ['match', 'any_of', 'all_of', 'prefix', 'wildcard', 'fuzzy'] as const;
type RuleName = (typeof RULES)[number];
const FILTERS = ['containing', 'contained_by', 'not_containing', 'not_contained_by', 'overlapping', 'not_overlapping', 'before', 'after'] as const;
type FilterName = (typeof FILTERS)[number];

interface Filter {
  readonly type: FilterName;
  readonly rule: Rule;
}

type Rule =
  | { readonly kind: 'match'; readonly query: string; readonly maxGaps: number; readonly ordered: boolean; readonly analyzer: string | null; readonly filter: Filter | null; readonly useField: string | null }
  | { readonly kind: 'any_of'; readonly intervals: readonly Rule[]; readonly filter: Filter | null }
  | { readonly kind: 'all_of'; readonly intervals: readonly Rule[]; readonly ordered: boolean; readonly maxGaps: number; readonly filter: Filter | null }
  | { readonly kind: 'prefix'; readonly prefix: string; readonly analyzer: string | null; readonly useField: string | null }
  | { readonly kind: 'wildcard'; readonly pattern: string; readonly analyzer: string | null; readonly useField: string | null }
  | {
      readonly kind: 'fuzzy';
      readonly term: string;
      readonly prefixLength: number;
      readonly transpositions: boolean;
      readonly fuzziness: Fuzziness;
      readonly analyzer: string | null;
      readonly useField: string | null;
    };

function ruleBody(name: string, value: unknown, where: string): JsonObject {
  if (!isPlainObject(value)) throw invalid(`[${name}] at ${where} must be an object, got ${describe(value)}`);
  return value;
}

/** One `{"<rule>": {...}}` object (an entry of `intervals`, a filter's rule). */
function parseInner(json: unknown, where: string): Rule {
  if (!isPlainObject(json)) throw invalid(`an interval rule at ${where} must be an object, got ${describe(json)}`);
  const keys = Object.keys(json);
  if (keys.length !== 1) throw invalid(`an interval rule at ${where} must hold exactly one rule, got ${keys.length === 0 ? 'none' : keys.map((k) => `[${k}]`).join(' and ')}`);
  return parseRule(keys[0], json[keys[0]], at(where, keys[0]));
}

function readOptString(name: string, obj: JsonObject, key: string, where: string): string | null {
  return hasOwn(obj, key) && obj[key] !== null ? readString(name, key, obj[key], at(where, key)) : null;
}

function readAnalyzerName(name: string, obj: JsonObject, where: string): string | null {
  const analyzer = readOptString(name, obj, 'analyzer', where);
  if (analyzer !== null && analyzerByName(analyzer) === undefined) throw invalid(`[${name}] analyzer [${analyzer}] not found at ${at(where, 'analyzer')}`);
  return analyzer;
}

function readMaxGaps(name: string, obj: JsonObject, where: string): number {
  return hasOwn(obj, 'max_gaps') ? readInteger(name, 'max_gaps', obj.max_gaps, at(where, 'max_gaps'), -1) : -1;
}

function readIntervals(name: string, obj: JsonObject, where: string): Rule[] {
  if (!hasOwn(obj, 'intervals')) throw invalid(`[${name}] at ${where} requires "intervals"`);
  const list = obj.intervals;
  if (!Array.isArray(list) || list.length === 0) throw invalid(`[${name}] "intervals" at ${at(where, 'intervals')} must be a non-empty array of interval rules`);
  return list.map((item, i) => parseInner(item, `${at(where, 'intervals')}[${i}]`));
}

function readFilter(obj: JsonObject, where: string): Filter | null {
  if (!hasOwn(obj, 'filter') || obj.filter === null) return null;
  const path = at(where, 'filter');
  const filter = obj.filter;
  if (!isPlainObject(filter)) throw invalid(`[filter] at ${path} must be an object, got ${describe(filter)}`);
  const keys = Object.keys(filter);
  if (keys.length !== 1) throw invalid(`[filter] at ${path} must hold exactly one filter (${FILTERS.join(', ')})`);
  const type = keys[0];
  if (!(FILTERS as readonly string[]).includes(type)) throw invalid(`Unknown filter type [${type}] at ${path} (expected one of ${FILTERS.join(', ')})`);
  return { type: type as FilterName, rule: parseInner(filter[type], at(path, type)) };
}

function parseRule(name: string, value: unknown, where: string): Rule {
  if (!(RULES as readonly string[]).includes(name)) throw invalid(`Unknown interval type [${name}] at ${where}, expecting one of [${RULES.join(', ')}]`);
  const obj = ruleBody(name, value, where);
  switch (name as RuleName) {
    case 'match': {
      checkParams(name, obj, ['query', 'max_gaps', 'ordered', 'analyzer', 'filter', 'use_field'], where);
      if (!hasOwn(obj, 'query')) throw invalid(`[match] at ${where} requires "query"`);
      return {
        kind: 'match',
        query: readString(name, 'query', obj.query, at(where, 'query')),
        maxGaps: readMaxGaps(name, obj, where),
        ordered: hasOwn(obj, 'ordered') ? readBoolean(name, 'ordered', obj.ordered, at(where, 'ordered')) : false,
        analyzer: readAnalyzerName(name, obj, where),
        filter: readFilter(obj, where),
        useField: readOptString(name, obj, 'use_field', where),
      };
    }
    case 'any_of':
      checkParams(name, obj, ['intervals', 'filter'], where);
      return { kind: 'any_of', intervals: readIntervals(name, obj, where), filter: readFilter(obj, where) };
    case 'all_of':
      checkParams(name, obj, ['intervals', 'ordered', 'max_gaps', 'filter'], where);
      return {
        kind: 'all_of',
        intervals: readIntervals(name, obj, where),
        ordered: hasOwn(obj, 'ordered') ? readBoolean(name, 'ordered', obj.ordered, at(where, 'ordered')) : false,
        maxGaps: readMaxGaps(name, obj, where),
        filter: readFilter(obj, where),
      };
    case 'prefix':
      checkParams(name, obj, ['prefix', 'analyzer', 'use_field'], where);
      if (!hasOwn(obj, 'prefix')) throw invalid(`[prefix] at ${where} requires "prefix"`);
      return { kind: 'prefix', prefix: readString(name, 'prefix', obj.prefix, at(where, 'prefix')), analyzer: readAnalyzerName(name, obj, where), useField: readOptString(name, obj, 'use_field', where) };
    case 'wildcard':
      checkParams(name, obj, ['pattern', 'analyzer', 'use_field'], where);
      if (!hasOwn(obj, 'pattern')) throw invalid(`[wildcard] at ${where} requires "pattern"`);
      return { kind: 'wildcard', pattern: readString(name, 'pattern', obj.pattern, at(where, 'pattern')), analyzer: readAnalyzerName(name, obj, where), useField: readOptString(name, obj, 'use_field', where) };
    case 'fuzzy':
      checkParams(name, obj, ['term', 'prefix_length', 'transpositions', 'fuzziness', 'analyzer', 'use_field'], where);
      if (!hasOwn(obj, 'term')) throw invalid(`[fuzzy] at ${where} requires "term"`);
      return {
        kind: 'fuzzy',
        term: readString(name, 'term', obj.term, at(where, 'term')),
        prefixLength: hasOwn(obj, 'prefix_length') ? readInteger(name, 'prefix_length', obj.prefix_length, at(where, 'prefix_length')) : 0,
        transpositions: hasOwn(obj, 'transpositions') ? readBoolean(name, 'transpositions', obj.transpositions, at(where, 'transpositions')) : true,
        fuzziness: hasOwn(obj, 'fuzziness') ? readFuzziness(name, obj.fuzziness, at(where, 'fuzziness')) : AUTO,
        analyzer: readAnalyzerName(name, obj, where),
        useField: readOptString(name, obj, 'use_field', where),
      };
  }
}

/** The fields a rule reads through use_field (IntervalsSourceProvider.extractFields). */
function useFields(rule: Rule, out: Set<string>): void {
  if ('useField' in rule && rule.useField !== null) out.add(rule.useField);
  if ('intervals' in rule) for (const r of rule.intervals) useFields(r, out);
  // as in Elasticsearch, a filter's rule is not looked at (extractFields skips filters)
}

/** Analyzer.normalize of the built-in analyzers: the lowercasing (and CJK width folding) they apply to a term. */
function normalize(analyzer: string, text: string): string {
  switch (analyzer) {
    case 'whitespace':
    case 'keyword':
      return text;
    case 'cjk':
      return lowerCase(cjkWidth(text));
    default:
      return lowerCase(text);
  }
}

interface Builder {
  readonly ctx: BuildContext;
  readonly path: string;
}

function textField(b: Builder, field: string): void {
  const type = fieldType(b.ctx, field);
  // a filter's use_field is not checked up front (as in Elasticsearch, where it fails worse)
  if (type === undefined) throw invalid(`no mapping for field [${field}] used in an interval rule (at ${b.path})`);
  if (type !== 'text') throw invalid(`Can only use interval queries on text fields - not on [${field}] which is of type [${type === 'id' ? '_id' : type}] (at ${b.path})`);
}

/** The search analyzer of a text field (its mapping's `search_analyzer`, else `analyzer`, else `standard`), by name. */
const searchAnalyzer = (b: Builder, field: string): string => b.ctx.mapping.analyzersOf(field).search.name;

function applyFilter(b: Builder, source: IntervalsSource, filter: Filter | null, field: string): IntervalsSource {
  if (filter === null) return source;
  const max = b.ctx.limits.maxClauseCount;
  const other = build(b, filter.rule, field);
  switch (filter.type) {
    case 'containing':
      return containing(source, other, max);
    case 'contained_by':
      return containedBy(source, other, max);
    case 'not_containing':
      return notContaining(source, other);
    case 'not_contained_by':
      return notContainedBy(source, other);
    case 'overlapping':
      return overlapping(source, other, max);
    case 'not_overlapping':
      return nonOverlapping(source, other);
    case 'before':
      return before(source, other, max);
    case 'after':
      return after(source, other, max);
  }
}

function build(b: Builder, rule: Rule, queryField: string): IntervalsSource {
  const max = b.ctx.limits.maxClauseCount;
  const limits = b.ctx.limits;
  switch (rule.kind) {
    case 'match': {
      const field = rule.useField ?? queryField;
      textField(b, field);
      const analyzer = analyzerByName(rule.analyzer ?? searchAnalyzer(b, field)) ?? (analyzerByName('standard') as NonNullable<ReturnType<typeof analyzerByName>>);
      const tokens = analyzer.tokens(rule.query);
      // IntervalBuilder.analyzeText: one token a term; several combined, a position gap as an extension before the term
      const terms = tokens.map((t) => {
        const source = new TermSource(field, t.term);
        return t.positionIncrement > 1 ? new ExtendedSource(source, t.positionIncrement - 1, 0) : source;
      });
      const source = tokens.length === 0 ? new NoIntervalsSource() : tokens.length === 1 ? new TermSource(field, tokens[0].term) : combineSources(terms, rule.maxGaps, rule.ordered, max);
      return applyFilter(b, source, rule.filter, field);
    }
    case 'any_of':
      return applyFilter(
        b,
        or(rule.intervals.map((r) => build(b, r, queryField))),
        rule.filter,
        queryField,
      );
    case 'all_of':
      return applyFilter(
        b,
        combineSources(
          rule.intervals.map((r) => build(b, r, queryField)),
          rule.maxGaps,
          rule.ordered,
          max,
        ),
        rule.filter,
        queryField,
      );
    case 'prefix': {
      const field = rule.useField ?? queryField;
      textField(b, field);
      const prefix = normalize(rule.analyzer ?? searchAnalyzer(b, field), rule.prefix);
      const key = `prefix:${JSON.stringify(prefix)}`;
      return new MultiTermSource(field, key, `${prefix}*`, max, lazyAutomaton(key, () => atOnce(() => compilePrefix(prefix))));
    }
    case 'wildcard': {
      const field = rule.useField ?? queryField;
      textField(b, field);
      const pattern = normalize(rule.analyzer ?? searchAnalyzer(b, field), rule.pattern);
      const key = `wildcard:${JSON.stringify(pattern)}:${limits.maxDeterminizedStates}`;
      return new MultiTermSource(field, key, pattern, max, lazyPattern(key, (budget) => compileWildcardSteps(pattern, false, limits.maxDeterminizedStates, budget)));
    }
    case 'fuzzy': {
      const field = rule.useField ?? queryField;
      textField(b, field);
      const term = normalize(rule.analyzer ?? searchAnalyzer(b, field), rule.term);
      // Fuzziness.asDistance of the term as written
      const maxEdits = editsFor(rule.fuzziness, rule.term);
      const options = { maxEdits, prefixLength: rule.prefixLength, transpositions: rule.transpositions, maxStates: limits.maxDeterminizedStates };
      const key = `fuzzy:${JSON.stringify([term, maxEdits, rule.prefixLength, rule.transpositions])}:${limits.maxDeterminizedStates}`;
      return new MultiTermSource(field, key, term, max, lazyPattern(key, (budget) => compileLevenshteinSteps(term, options, budget)));
    }
  }
}

export const parseIntervals: ClauseParser = (body, path) => {
  if (!isPlainObject(body)) throw invalid(`[${CLAUSE}] at ${path} must be an object, got ${describe(body)}`);
  const fields = Object.keys(body);
  if (fields.length !== 1) throw invalid(`[${CLAUSE}] at ${path} must name exactly one field, got ${fields.length}`);
  const field = fields[0];
  const where = at(path, field);
  const obj = body[field];
  if (!isPlainObject(obj)) throw invalid(`[${CLAUSE}] at ${where} must be an object holding one interval rule, got ${describe(obj)}`);
  let rule: Rule | null = null;
  let ruleName: string | null = null;
  for (const key of Object.keys(obj)) {
    if (key === 'boost' || key === '_name') continue;
    if (ruleName !== null) throw invalid(`Only one interval rule can be specified, found [${ruleName}] and [${key}] at ${where}`);
    ruleName = key;
    rule = parseRule(key, obj[key], at(where, key));
  }
  if (rule === null) throw invalid(`Missing intervals from interval query definition at ${where}`);
  const boost = boostOf(CLAUSE, obj, where);
  readName(CLAUSE, obj, where);
  const parsed = rule;
  return {
    toLucene(ctx): LQuery {
      // IntervalQueryBuilder.doToQuery: an unmapped field (or use_field) matches nothing
      if (fieldType(ctx, field) === undefined) return matchNone(`unmapped field ${field}`);
      const masked = new Set<string>();
      useFields(parsed, masked);
      for (const name of masked) if (fieldType(ctx, name) === undefined) return matchNone(`unmapped field ${name}`);
      const source = build({ ctx, path: where }, parsed, field);
      return withBoost({ type: 'intervals', field, source, maxClauseCount: ctx.limits.maxClauseCount }, boost);
    },
  };
};
