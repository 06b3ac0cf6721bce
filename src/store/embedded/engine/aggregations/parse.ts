/**
 * The entry point: `aggs` / `aggregations` of a search body into a tree of AggNodes, checked whole
 * before anything runs (both stores call it: the Elasticsearch store refuses what the engine
 * refuses, with the same messages). Each entry is `{"<name>": {"<type>": {...}, "aggs": {...},
 * "meta": {...}}}`; names may hold any character but `[`, `]` and `>` (Elasticsearch's rule: they
 * are order paths' syntax). Types outside the table below are refused by name, metrics with
 * sub-aggregations likewise.
 */
import { QueryDsl } from '../../../port';
import { describe, hasOwn, isPlainObject } from '../json';
import { DEFAULT_LIMITS, QueryLimits } from '../limits';
import { parseQuery } from '../query/parse';
import { parseCardinality } from './cardinality';
import { parseComposite } from './composite';
import { parseDateHistogram } from './dateHistogram';
import { parseFilters } from './filters';
import { parseHistogram } from './histogram';
import { at, invalid } from './params';
import { parsePercentiles } from './percentiles';
import { parseRange } from './range';
import { parseFilter, parseGlobal, parseMissing } from './singleBucket';
import { parseStats } from './stats';
import { parseTerms } from './terms';
import { parseTopHits } from './topHits';
import { AggNode, AggParseContext, Aggregator } from './types';
import { parseValueMetric } from './valueMetrics';

type Parser = (body: unknown, where: string, ctx: AggParseContext) => Aggregator;

/** Every supported type; `bucket`: whether it takes sub-aggregations. */
export const AGGREGATIONS: Record<string, { parse: Parser; bucket: boolean }> = {
  terms: { parse: parseTerms, bucket: true },
  range: { parse: (b, w, c) => parseRange('range', b, w, c), bucket: true },
  date_range: { parse: (b, w, c) => parseRange('date_range', b, w, c), bucket: true },
  histogram: { parse: parseHistogram, bucket: true },
  date_histogram: { parse: parseDateHistogram, bucket: true },
  filter: { parse: parseFilter, bucket: true },
  filters: { parse: parseFilters, bucket: true },
  missing: { parse: (b, w) => parseMissing(b, w), bucket: true },
  global: { parse: parseGlobal, bucket: true },
  composite: { parse: parseComposite, bucket: true },
  min: { parse: (b, w) => parseValueMetric('min', b, w), bucket: false },
  max: { parse: (b, w) => parseValueMetric('max', b, w), bucket: false },
  avg: { parse: (b, w) => parseValueMetric('avg', b, w), bucket: false },
  sum: { parse: (b, w) => parseValueMetric('sum', b, w), bucket: false },
  value_count: { parse: (b, w) => parseValueMetric('value_count', b, w), bucket: false },
  stats: { parse: (b, w) => parseStats('stats', b, w), bucket: false },
  extended_stats: { parse: (b, w) => parseStats('extended_stats', b, w), bucket: false },
  cardinality: { parse: (b, w) => parseCardinality(b, w), bucket: false },
  percentiles: { parse: (b, w) => parsePercentiles(b, w), bucket: false },
  top_hits: { parse: (b, w, c) => parseTopHits(b, w, c.name), bucket: false },
};

export const SUPPORTED_AGGREGATIONS = Object.keys(AGGREGATIONS);

const VALID_NAME = /^[^[\]>]+$/;

function parseLevel(aggs: unknown, where: string, parent: string | null, limits: QueryLimits): AggNode[] {
  if (!isPlainObject(aggs)) throw invalid(`aggregations at ${where} must be an object of named aggregations, got ${describe(aggs)}`);
  return Object.keys(aggs).map((name) => parseOne(name, aggs[name], at(where, name), parent, limits));
}

function parseOne(name: string, def: unknown, where: string, parent: string | null, limits: QueryLimits): AggNode {
  if (!VALID_NAME.test(name)) throw invalid(`Invalid aggregation name [${name}] at ${where}. Aggregation names can contain any character except '[', ']', and '>'`);
  if (!isPlainObject(def)) throw invalid(`Expected [START_OBJECT] under [${name}], but got ${describe(def)} at ${where}`);
  let type: string | null = null;
  let subsJson: unknown;
  let subsKey = '';
  let meta: Record<string, unknown> | undefined;
  for (const key of Object.keys(def)) {
    if (key === 'aggs' || key === 'aggregations') {
      if (subsKey !== '') throw invalid(`Found two sub aggregation definitions under [${name}] at ${where}`);
      subsKey = key;
      subsJson = def[key];
    } else if (key === 'meta') {
      if (!isPlainObject(def.meta)) throw invalid(`[meta] of aggregation [${name}] at ${where} must be an object, got ${describe(def.meta)}`);
      meta = def.meta;
    } else if (type !== null) {
      throw invalid(`Found two aggregation type definitions in [${name}]: [${type}] and [${key}] (at ${where})`);
    } else {
      type = key;
    }
  }
  if (type === null) throw invalid(`Missing definition for aggregation [${name}] at ${where}`);
  const entry = hasOwn(AGGREGATIONS, type) ? AGGREGATIONS[type] : undefined;
  if (entry === undefined) throw invalid(`Unknown aggregation type [${type}] at ${where} (supported: ${SUPPORTED_AGGREGATIONS.join(', ')})`);
  const subs = subsKey === '' ? [] : parseLevel(subsJson, at(where, subsKey), type, limits);
  if (!entry.bucket && subs.length > 0) throw invalid(`Aggregator [${name}] of type [${type}] cannot accept sub-aggregations (at ${where})`);
  const ctx: AggParseContext = { name, limits, parent, subs, parseQuery: (json, w) => parseQuery(json as QueryDsl, w, limits) };
  const agg = entry.parse(def[type], at(where, type), ctx);
  return meta === undefined ? { name, agg, subs } : { name, agg, subs, meta };
}

/** The aggregations of a search body (`aggs` or `aggregations`), parsed and checked whole. */
export function parseAggregations(aggs: unknown, limits: QueryLimits = DEFAULT_LIMITS, where = 'aggs'): AggNode[] {
  return parseLevel(aggs, where, null, limits);
}

/** Whether some aggregation of the tree is a top_hits (the search must then compute scores). */
export function hasTopHits(nodes: readonly AggNode[]): boolean {
  return nodes.some((n) => n.agg.type === 'top_hits' || hasTopHits(n.subs));
}
