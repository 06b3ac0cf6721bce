/**
 * The query DSL entry point: a query clause is an object with exactly one key, the clause name,
 * whose value the clause's parser reads. Unknown clauses, wrong shapes, unsupported parameters and
 * any `script` throw InvalidQueryError naming the clause and where it is
 * (`unsupported query clause "more_like_this" at query.bool.must[1]`). Nesting is limited to
 * `limits.maxQueryDepth` levels (30 by default), as Elasticsearch's indices.query.bool.max_nested_depth
 * does: a QueryLimitError ("query_too_deep").
 */
import { QueryLimitError } from '../../../port';
import { describe, isPlainObject, quote } from '../json';
import { DEFAULT_LIMITS, QueryLimits } from '../limits';
import { parseBool } from './bool';
import { parseBoosting } from './boosting';
import { parseCombinedFields } from './combinedFields';
import { parseConstantScore } from './constantScore';
import { ClauseParser, ParseContext, ParsedQuery } from './context';
import { DoneAhead, buildableAhead } from './slices';
import { Steps } from '../budget/budget';
import { parseDisMax } from './disMax';
import { parseExists } from './exists';
import { parseFunctionScore } from './functionScore';
import { parseFuzzy } from './fuzzy';
import { parseGeoBoundingBox } from './geoBoundingBox';
import { parseGeoDistance } from './geoDistance';
import { parseIds } from './ids';
import { parseIntervals } from './intervals';
import { parseMatch } from './match';
import { parseMatchAll, parseMatchNone } from './matchAll';
import { parseMatchPhrase } from './matchPhrase';
import { parseMatchBoolPrefix } from './matchBoolPrefix';
import { parseMatchPhrasePrefix } from './matchPhrasePrefix';
import { parseMultiMatch } from './multiMatch';
import { parseNested } from './nested';
import { at, invalid } from './params';
import { parsePrefix } from './prefix';
import { parseQueryString } from './queryString';
import { parseRange } from './range';
import { parseRegexp } from './regexp';
import { parseSimpleQueryString } from './simpleQueryString';
import { parseTerm } from './term';
import { parseTerms } from './terms';
import { parseWildcard } from './wildcard';


const CLAUSES = new Map<string, ClauseParser>([
  ['match_all', parseMatchAll],
  ['match_none', parseMatchNone],
  ['match', parseMatch],
  ['match_phrase', parseMatchPhrase],
  ['match_phrase_prefix', parseMatchPhrasePrefix],
  ['match_bool_prefix', parseMatchBoolPrefix],
  ['multi_match', parseMultiMatch],
  ['combined_fields', parseCombinedFields],
  ['intervals', parseIntervals],
  ['term', parseTerm],
  ['terms', parseTerms],
  ['range', parseRange],
  ['exists', parseExists],
  ['ids', parseIds],
  ['prefix', parsePrefix],
  ['wildcard', parseWildcard],
  ['regexp', parseRegexp],
  ['fuzzy', parseFuzzy],
  ['bool', parseBool],
  ['constant_score', parseConstantScore],
  ['dis_max', parseDisMax],
  ['query_string', parseQueryString],
  ['simple_query_string', parseSimpleQueryString],
  ['function_score', parseFunctionScore],
  ['boosting', parseBoosting],
  ['geo_distance', parseGeoDistance],
  ['geo_bounding_box', parseGeoBoundingBox],
  ['nested', parseNested],
]);

/** Keys refused anywhere in a query or sort: Elasticsearch's scripting entry points. */
const SCRIPT_KEYS = new Set(['script', '_script', 'script_score', 'script_fields']);

/** A path cut in the middle when long (a query nested thousands deep names where, not every level). */
function shortPath(path: string): string {
  return path.length <= 200 ? path : `${path.slice(0, 90)}…${path.slice(-90)}`;
}

/**
 * Refuse scripts anywhere in a piece of request JSON (a clause, a parameter, a sort), and JSON nested
 * deeper than a query within `limits.maxQueryDepth` can be (each clause level is at most four JSON
 * levels: the clause, its parameters, an array of clauses, the next clause) as query_too_deep.
 * Iterative, so that no input can exhaust the stack.
 */
export function assertNoScript(json: unknown, path: string, limits: QueryLimits = DEFAULT_LIMITS): void {
  const maxDepth = 4 * limits.maxQueryDepth + 8;
  // only objects and arrays are visited; the path of each is made only when an error needs it
  const values: unknown[] = [json];
  const parents: number[] = [-1];
  const names: (string | number)[] = [''];
  const depths: number[] = [0];
  const pathOf = (at: number, last?: string): string => {
    const parts: string[] = last === undefined ? [] : [`.${last}`];
    for (let i = at; i > 0; i = parents[i]) parts.push(typeof names[i] === 'number' ? `[${names[i]}]` : `.${names[i]}`);
    return path + parts.reverse().join('');
  };
  /** Records an object or array to visit; its number. */
  const node = (value: unknown, parent: number, name: string | number, depth: number): number => {
    values.push(value);
    parents.push(parent);
    names.push(name);
    depths.push(depth);
    return values.length - 1;
  };
  const pending: number[] = [0];
  while (pending.length > 0) {
    const at = pending.pop() as number;
    const value = values[at];
    const depth = depths[at];
    if (depth > maxDepth) {
      const where = shortPath(pathOf(at));
      throw new QueryLimitError('query_too_deep', { path: where, limit: limits.maxQueryDepth }, `the query at ${where} is nested deeper than ${limits.maxQueryDepth} levels`);
    }
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) {
        const child: unknown = value[i];
        if (typeof child === 'object' && child !== null) pending.push(node(child, at, i, depth + 1));
      }
    } else {
      const obj = value as Record<string, unknown>;
      for (const key in obj) {
        if (!Object.prototype.hasOwnProperty.call(obj, key)) continue;
        if (SCRIPT_KEYS.has(key)) throw invalid(`scripts are not allowed: ${quote(key)} at ${shortPath(pathOf(at, key))}`);
        const child = obj[key];
        if (typeof child === 'object' && child !== null) pending.push(node(child, at, key, depth + 1));
      }
    }
  }
}

/** The clauses that hold other clauses: parsed by the ordinary pass, their leaves ahead (slices.ts). */
const COMPOUND = new Set(['bool', 'constant_score', 'dis_max', 'function_score', 'boosting', 'nested']);

class Parser implements ParseContext {
  private depth = 0;

  /** @param ahead the leaves parsed ahead (slices.ts), by their JSON object and path */
  constructor(
    readonly limits: QueryLimits,
    private readonly ahead: DoneAhead<ParsedQuery> | null = null,
  ) {}

  parseQuery(json: unknown, path: string): ParsedQuery {
    if (!isPlainObject(json)) throw invalid(`query clause at ${path} must be an object, got ${describe(json)}`);
    const keys = Object.keys(json);
    if (keys.length === 0) throw invalid(`query malformed, empty clause found at ${path}`);
    if (keys.length > 1) throw invalid(`query malformed at ${path}: one clause expected, found ${quote(keys[0])} and ${quote(keys[1])}`);
    const name = keys[0];
    const parser = CLAUSES.get(name);
    if (parser === undefined) throw invalid(`unsupported query clause ${quote(name)} at ${path}`);
    const limit = this.limits.maxQueryDepth;
    if (this.depth >= limit) throw new QueryLimitError('query_too_deep', { path, limit }, `the query at ${path} is nested deeper than ${limit} levels`);
    this.depth++;
    try {
      const done = this.ahead?.get(json);
      if (done !== undefined && done.key === path) return done.value;
      return parser(json[name], `${path}.${name}`, this);
    } finally {
      this.depth--;
    }
  }
}

/** Parse (and validate) a query DSL clause; `path` names where it is, for error messages. */
export function parseQuery(json: unknown, path = 'query', limits: QueryLimits = DEFAULT_LIMITS): ParsedQuery {
  assertNoScript(json, path, limits);
  return new Parser(limits).parseQuery(json, path);
}

/**
 * parseQuery a slice at a time (slices.ts): the leaf clauses parsed ahead, a few between two looks
 * at `over()`, pausing when it says the slice is over, then the ordinary parse at once, which finds
 * them done. The same query, or the same first error. `leaves`: those parsed ahead, in document
 * order (for buildLeavesAhead).
 */
export function* parseQuerySteps(json: unknown, path: string, limits: QueryLimits, over: () => boolean): Steps<{ query: ParsedQuery; leaves: ParsedQuery[] }> {
  assertNoScript(json, path, limits);
  const ahead: DoneAhead<ParsedQuery> = new Map();
  const context = new Parser(limits);
  // every object and array of the JSON, in document order, with its path as the clauses write it
  const values: unknown[] = [json];
  const paths: string[] = [path];
  let visited = 0;
  while (values.length > 0) {
    const value = values.pop();
    const where = paths.pop() as string;
    if (typeof value !== 'object' || value === null) continue; // (the query itself: the ordinary pass refuses it)
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) {
        const child: unknown = value[i];
        if (typeof child === 'object' && child !== null) {
          values.push(child);
          paths.push(`${where}[${i}]`);
        }
      }
    } else {
      const obj = value as Record<string, unknown>;
      const keys = Object.keys(obj);
      const parser = keys.length === 1 && !COMPOUND.has(keys[0]) ? CLAUSES.get(keys[0]) : undefined;
      if (parser !== undefined) {
        // a leaf clause (or what looks like one: a leaf's own body is not walked)
        try {
          ahead.set(obj, { key: where, value: buildableAhead(parser(obj[keys[0]], `${where}.${keys[0]}`, context)) });
        } catch {
          // parsed again, in its order, by the ordinary pass: its error comes then, if it is the first
        }
        if (over()) yield;
        continue;
      }
      for (let i = keys.length - 1; i >= 0; i--) {
        const child = obj[keys[i]];
        if (typeof child === 'object' && child !== null) {
          values.push(child);
          paths.push(at(where, keys[i]));
        }
      }
    }
    if ((++visited & 255) === 0 && over()) yield;
  }
  const query = new Parser(limits, ahead).parseQuery(json, path);
  return { query, leaves: [...ahead.values()].map((done) => done.value) };
}

/** Names of the supported query clauses. */
export const SUPPORTED_CLAUSES: readonly string[] = [...CLAUSES.keys()];
