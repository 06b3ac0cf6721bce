/**
 * `function_score` (Elasticsearch's FunctionScoreQueryBuilder): the documents of `query` (match_all
 * by default) scored by functions, `{"function_score": {"query": {...}, "functions": [{"filter":
 * {...}, "weight": 2, "field_value_factor": {...}}], "score_mode": "sum", "boost_mode": "multiply",
 * "max_boost": 10, "min_score": 1, "boost": 1}}`, or one function at the top level
 * (`{"function_score": {"query": ..., "gauss": {...}, "weight": 2}}`). Functions: `weight` alone,
 * `field_value_factor`, `gauss`/`exp`/`linear` decays, `random_score` (`script_score` is refused, no
 * script runs here). As Elasticsearch builds it: a function whose filter is match_all has no filter,
 * and a single function without a filter is scored with score_mode `first` whatever is asked.
 */
import { JsonObject, describe, hasOwn, isPlainObject, quote } from '../json';
import { CombineMode, FLOAT_MAX, FunctionScoreMode, FunctionScoreQuery, LQuery, ScoreFunction, scoreFunction, withBoost } from '../lucene/query';
import { geoDecay } from '../geo/geoDecay';
import { BuildContext, ClauseParser, ParsedQuery } from './context';
import { DECAY_FUNCTIONS, DecayKind, DecaySpec, numericDecay, parseDecay } from './decay';
import { FieldValueFactorSpec, fieldValueFactor, parseFieldValueFactor } from './fieldValueFactor';
import { at, boostOf, invalid, readEnum, readName, readNumber } from './params';
import { RandomScoreSpec, parseRandomScore, randomScore } from './randomScore';

export const SCORE_MODES: readonly FunctionScoreMode[] = ['multiply', 'sum', 'avg', 'first', 'max', 'min'];
export const BOOST_MODES: readonly CombineMode[] = ['multiply', 'replace', 'sum', 'avg', 'max', 'min'];
const FUNCTION_NAMES = ['field_value_factor', 'random_score', ...DECAY_FUNCTIONS];
const TOP_LEVEL = ['query', 'functions', 'score_mode', 'boost_mode', 'max_boost', 'min_score', 'boost', '_name', 'weight', ...FUNCTION_NAMES];

type FunctionSpec =
  | { readonly name: 'field_value_factor'; readonly spec: FieldValueFactorSpec }
  | { readonly name: 'random_score'; readonly spec: RandomScoreSpec }
  | { readonly name: 'decay'; readonly spec: DecaySpec }
  | { readonly name: 'weight' };

interface FunctionEntry {
  readonly filter: ParsedQuery | null;
  readonly weight: number | null;
  readonly fn: FunctionSpec;
  readonly path: string;
}

function readFunction(name: string, body: unknown, path: string): FunctionSpec {
  if (name === 'field_value_factor') return { name, spec: parseFieldValueFactor(body, path) };
  if (name === 'random_score') return { name, spec: parseRandomScore(body, path) };
  return { name: 'decay', spec: parseDecay(name as DecayKind, body, path) };
}

function readWeight(value: unknown, path: string): number {
  return Math.fround(readNumber('function_score', 'weight', value, path));
}

/** One entry of `functions`: an optional filter, an optional weight, at most one function. */
function readEntry(json: unknown, path: string, parseQuery: (json: unknown, path: string) => ParsedQuery): FunctionEntry {
  if (!isPlainObject(json)) throw invalid(`[function_score] function at ${path} must be an object, got ${describe(json)}`);
  let fn: FunctionSpec | null = null;
  let fnName = '';
  for (const key of Object.keys(json)) {
    if (key === 'filter' || key === 'weight') continue;
    if (!FUNCTION_NAMES.includes(key)) throw invalid(`[function_score] unsupported function ${quote(key)} at ${at(path, key)}`);
    if (fn !== null) throw invalid(`[function_score] at ${path}: already found function [${fnName}], now encountering [${key}]; use [functions] array if you want to define several functions`);
    fn = readFunction(key, json[key], at(path, key));
    fnName = key;
  }
  const weight = hasOwn(json, 'weight') ? readWeight(json.weight, at(path, 'weight')) : null;
  if (fn === null && weight === null) throw invalid(`[function_score] an entry in functions list is missing a function at ${path}`);
  const filter = hasOwn(json, 'filter') ? parseQuery(json.filter, at(path, 'filter')) : null;
  return { filter, weight, fn: fn ?? { name: 'weight' }, path };
}

/** The top-level form: one function (and its weight) beside the query. */
function topLevelEntry(obj: JsonObject, path: string): FunctionEntry | null {
  const names = FUNCTION_NAMES.filter((name) => hasOwn(obj, name));
  if (names.length > 1) throw invalid(`[function_score] at ${path}: already found function [${names[0]}], now encountering [${names[1]}]; use [functions] array if you want to define several functions`);
  const weight = hasOwn(obj, 'weight') ? readWeight(obj.weight, at(path, 'weight')) : null;
  if (names.length === 0) return weight === null ? null : { filter: null, weight, fn: { name: 'weight' }, path };
  if (hasOwn(obj, 'functions')) throw invalid(`[function_score] at ${path}: already found [functions] array, now encountering [${names[0]}]`);
  return { filter: null, weight, fn: readFunction(names[0], obj[names[0]], at(path, names[0])), path };
}

function buildFunction(entry: FunctionEntry, ctx: BuildContext): ScoreFunction {
  const { fn, path } = entry;
  let base: Omit<ScoreFunction, 'filter' | 'weight'>;
  if (fn.name === 'weight') base = { key: 'one', text: 'score one', bind: () => () => 1.0, maxFactor: () => 1.0 };
  else if (fn.name === 'field_value_factor') base = fieldValueFactor(fn.spec, ctx, path);
  else if (fn.name === 'random_score') base = randomScore(fn.spec, ctx, path);
  else base = geoDecay(fn.spec, ctx) ?? numericDecay(fn.spec, ctx);
  let filter: LQuery | null = entry.filter === null ? null : entry.filter.toLucene(ctx);
  if (filter !== null && filter.type === 'matchAll') filter = null; // (match_all: no FilterScoreFunction)
  const weight = entry.weight;
  if (weight === null) return scoreFunction(base, filter, 1);
  // WeightFactorFunction: the function's score times the (float) weight
  return {
    filter,
    weight,
    key: `${base.key}*${weight}`,
    text: `${base.text}, weight ${weight}`,
    bind(index) {
      const score = base.bind(index);
      return (doc, s) => score(doc, s) * weight;
    },
    maxFactor(index) {
      const max = base.maxFactor?.(index) ?? null;
      return max === null || !(weight >= 0) ? null : max * weight;
    },
  };
}

export const parseFunctionScore: ClauseParser = (body, path, ctx) => {
  if (!isPlainObject(body)) throw invalid(`[function_score] at ${path} must be an object, got ${describe(body)}`);
  for (const key of Object.keys(body)) {
    if (key === 'script_score') throw invalid(`scripts are not allowed: "script_score" at ${at(path, key)}`);
    if (!TOP_LEVEL.includes(key)) throw invalid(`unsupported parameter ${quote(key)} for [function_score] at ${path}`);
  }
  const query = hasOwn(body, 'query') ? ctx.parseQuery(body.query, at(path, 'query')) : null;
  const entries: FunctionEntry[] = [];
  const top = topLevelEntry(body, path);
  if (top !== null) entries.push(top);
  if (hasOwn(body, 'functions')) {
    const list = body.functions;
    if (!Array.isArray(list)) throw invalid(`[function_score] "functions" at ${at(path, 'functions')} must be an array, got ${describe(list)}`);
    list.forEach((item, i) => entries.push(readEntry(item, `${at(path, 'functions')}[${i}]`, (json, where) => ctx.parseQuery(json, where))));
  }
  const scoreMode = hasOwn(body, 'score_mode') ? readEnum('function_score', 'score_mode', body.score_mode, SCORE_MODES, at(path, 'score_mode')) : 'multiply';
  const boostMode = hasOwn(body, 'boost_mode') ? readEnum('function_score', 'boost_mode', body.boost_mode, BOOST_MODES, at(path, 'boost_mode')) : 'multiply';
  const maxBoost = hasOwn(body, 'max_boost') ? Math.fround(readNumber('function_score', 'max_boost', body.max_boost, at(path, 'max_boost'))) : FLOAT_MAX;
  if (!(maxBoost > 0)) throw invalid(`[function_score] "max_boost" at ${at(path, 'max_boost')} must be > 0`);
  const minScore = hasOwn(body, 'min_score') ? Math.fround(readNumber('function_score', 'min_score', body.min_score, at(path, 'min_score'))) : null;
  const boost = boostOf('function_score', body, path);
  readName('function_score', body, path);
  return {
    toLucene: (buildCtx) => {
      const sub = query === null ? ({ type: 'matchAll' } as const) : query.toLucene(buildCtx);
      const functions = entries.map((entry) => buildFunction(entry, buildCtx));
      const single = functions.length === 1 && functions[0].filter === null;
      const node: FunctionScoreQuery = { type: 'functionScore', query: sub, functions, scoreMode: single ? 'first' : scoreMode, boostMode, maxBoost, minScore, boostOutside: false };
      return withBoost(node, boost);
    },
  };
};
