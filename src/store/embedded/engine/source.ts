/**
 * `_source` filtering as Elasticsearch does it (XContentMapValues.filter): `false` (no source: an
 * empty object here, since a hit always carries one), `true`, a pattern, an array of patterns, or
 * `{"includes": [...], "excludes": [...]}` (`include`/`exclude` accepted too). Patterns are dotted
 * paths with `*` wildcards (matching any characters, dots included); an included path takes its
 * whole sub-object, an excluded path removes it; objects inside arrays are filtered with the
 * array's path; objects and arrays left empty by an include are dropped.
 */
import { InvalidQueryError } from '../../port';
import { Doc } from '../../port';
import { cloneJson, describe, hasOwn, isPlainObject, quote, setOwn } from './json';

export interface SourceFilter {
  /** false: `_source: false`. */
  enabled: boolean;
  includes: string[];
  excludes: string[];
}

const ALL: SourceFilter = { enabled: true, includes: [], excludes: [] };

function patterns(value: unknown, where: string): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) {
    return value.map((p, i) => {
      if (typeof p !== 'string') throw new InvalidQueryError(`_source pattern at ${where}[${i}] must be a string, got ${describe(p)}`);
      return p;
    });
  }
  throw new InvalidQueryError(`_source patterns at ${where} must be a string or an array of strings, got ${describe(value)}`);
}

export function parseSourceFilter(value: unknown): SourceFilter {
  if (value === undefined || value === null || value === true) return ALL;
  if (value === false) return { enabled: false, includes: [], excludes: [] };
  if (typeof value === 'string' || Array.isArray(value)) return { enabled: true, includes: patterns(value, '_source'), excludes: [] };
  if (isPlainObject(value)) {
    const filter: SourceFilter = { enabled: true, includes: [], excludes: [] };
    for (const key of Object.keys(value)) {
      if (key === 'includes' || key === 'include') filter.includes = patterns(value[key], `_source.${key}`);
      else if (key === 'excludes' || key === 'exclude') filter.excludes = patterns(value[key], `_source.${key}`);
      else throw new InvalidQueryError(`unsupported _source parameter ${quote(key)}`);
    }
    if (hasOwn(value, 'includes') && hasOwn(value, 'include')) throw new InvalidQueryError('_source takes "includes" or "include", not both');
    return filter;
  }
  throw new InvalidQueryError(`_source must be a boolean, a pattern, an array of patterns or an object, got ${describe(value)}`);
}

/**
 * A set of glob patterns run as an automaton over a dotted path, one character at a time: a state
 * is, per pattern, the set of positions the pattern may be at (null: no pattern can match any more).
 */
class PatternSet {
  constructor(private readonly patterns: string[]) {}

  start(): number[][] {
    return this.patterns.map(() => this.closure([0], 0));
  }

  /** Positions reachable without consuming input (a `*` may match nothing). */
  private closure(positions: number[], p: number): number[] {
    const pattern = this.patterns[p];
    const out = new Set(positions);
    for (const pos of positions) {
      let i = pos;
      while (i < pattern.length && pattern[i] === '*') out.add(++i);
    }
    return [...out];
  }

  step(state: number[][] | null, text: string): number[][] | null {
    if (state === null) return null;
    let current = state;
    for (const ch of text) {
      let alive = false;
      current = current.map((positions, p) => {
        const pattern = this.patterns[p];
        const next: number[] = [];
        for (const pos of positions) {
          if (pos >= pattern.length) continue;
          if (pattern[pos] === '*') next.push(pos);
          else if (pattern[pos] === ch) next.push(pos + 1);
        }
        const closed = this.closure(next, p);
        if (closed.length > 0) alive = true;
        return closed;
      });
      if (!alive) return null;
    }
    return current;
  }

  accepts(state: number[][] | null): boolean {
    return state !== null && state.some((positions, p) => positions.includes(this.patterns[p].length));
  }
}

/** A pattern set that matches everything (no includes). */
class MatchAll {
  start(): number[][] {
    return [];
  }
  step(state: number[][] | null): number[][] | null {
    return state;
  }
  accepts(state: number[][] | null): boolean {
    return state !== null;
  }
}

type Automaton = PatternSet | MatchAll;

/** Beyond this depth a document is copied as it is where it is included (absurdly deep documents). */
const MAX_FILTER_DEPTH = 200;

function filterMap(map: Record<string, unknown>, include: Automaton, includeState: number[][] | null, exclude: PatternSet, excludeState: number[][] | null, depth = 0): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (depth > MAX_FILTER_DEPTH) return include.accepts(includeState) ? map : out;
  for (const key of Object.keys(map)) {
    const inState = include.step(includeState, key);
    if (inState === null) continue;
    const exState = exclude.step(excludeState, key);
    if (exclude.accepts(exState)) continue;
    const value = map[key];
    let subInclude = include;
    let subState = inState;
    if (include.accepts(inState)) {
      if (exState === null || exclude.step(exState, '.') === null) {
        setOwn(out, key, value); // no exclude can match inside
        continue;
      }
      subInclude = new MatchAll();
      subState = [];
    }
    if (isPlainObject(value)) {
      const innerState = subInclude.step(subState, '.');
      if (innerState === null) continue;
      const filtered = filterMap(value, subInclude, innerState, exclude, exState === null ? null : exclude.step(exState, '.'), depth + 1);
      if (include.accepts(inState) || Object.keys(filtered).length > 0) setOwn(out, key, filtered);
    } else if (Array.isArray(value)) {
      const filtered = filterArray(value, subInclude, subState, exclude, exState, depth + 1);
      if (include.accepts(inState) || filtered.length > 0) setOwn(out, key, filtered);
    } else if (include.accepts(inState)) {
      setOwn(out, key, value);
    }
  }
  return out;
}

function filterArray(array: unknown[], include: Automaton, includeState: number[][] | null, exclude: PatternSet, excludeState: number[][] | null, depth: number): unknown[] {
  const out: unknown[] = [];
  if (depth > MAX_FILTER_DEPTH) return include.accepts(includeState) ? array : out;
  const isInclude = include.accepts(includeState);
  for (const value of array) {
    if (isPlainObject(value)) {
      const filtered = filterMap(value, include, include.step(includeState, '.'), exclude, excludeState === null ? null : exclude.step(excludeState, '.'), depth + 1);
      if (Object.keys(filtered).length > 0) out.push(filtered);
    } else if (Array.isArray(value)) {
      const filtered = filterArray(value, include, includeState, exclude, excludeState, depth + 1);
      if (filtered.length > 0) out.push(filtered);
    } else if (isInclude) {
      out.push(value);
    }
  }
  return out;
}

/** The filtered source (a new object; the stored source is never shared). `owned`: `source` is already a copy, the caller's to give away. */
export function filterSource(source: Doc, filter: SourceFilter, owned = false): Doc {
  if (!filter.enabled) return {};
  if (filter.includes.length === 0 && filter.excludes.length === 0) return owned ? source : cloneJson(source);
  const include: Automaton = filter.includes.length === 0 ? new MatchAll() : new PatternSet(filter.includes);
  const exclude = new PatternSet(filter.excludes);
  const excludeStart = filter.excludes.length === 0 ? null : exclude.start();
  return cloneJson(filterMap(source, include, include.start(), exclude, excludeStart));
}
