/**
 * Compiled patterns, kept by what defines them (kind, pattern, options): compiling costs up to a few
 * milliseconds, and frontends send the same patterns again and again. Compiling is also deferred
 * until the search evaluates the clause (`lazyAutomaton`), within the search's budget: a query of
 * thousands of distinct patterns compiles them between budget checks, and a pattern near its
 * determinization limit pauses while it is determinized, instead of keeping the event loop.
 *
 * Bounded by entries (MAX_ENTRIES) and by the bytes of their arrays (MAX_BYTES), least recently used
 * out first. The entries cover a whole query at the default clause count (MAX_CLAUSE_COUNT, 4,096
 * patterns) twice over: with 512 entries a `bool` of 4,000 patterns sent again found none of them
 * (an LRU read in a cycle longer than itself hits nothing) and compiled all 4,000 each time (such
 * a wildcard's automaton holds about 4 KB: 16 MB for 4,096). The largest automaton the
 * determinization limit lets through holds a few MB at most.
 */
import { RunAutomaton } from '../automaton';
import { Budget, Steps } from '../budget/budget';

export const MAX_ENTRIES = 8192;
export const MAX_BYTES = 32 * 1024 * 1024;
const cache = new Map<string, RunAutomaton>();
let cachedBytes = 0;

/** A pattern compiled when first needed, within a budget (`steps`), then remembered here. */
export type LazyAutomaton = (budget: Budget) => Steps<RunAutomaton>;

/** The automaton `compile` makes for `key`, from the cache when it was made before (least recently used out first). */
export function* cachedAutomaton(key: string, compile: (budget: Budget) => Steps<RunAutomaton>, budget: Budget): Steps<RunAutomaton> {
  const found = cache.get(key);
  if (found !== undefined) {
    cache.delete(key);
    cache.set(key, found);
    return found;
  }
  const made = yield* compile(budget);
  // another search may have compiled the same pattern while this one paused in its compile: keep one
  const meanwhile = cache.get(key);
  if (meanwhile !== undefined) {
    cache.delete(key);
    cache.set(key, meanwhile);
    return meanwhile;
  }
  cache.set(key, made);
  cachedBytes += made.bytes;
  while (cache.size > 0 && (cache.size > MAX_ENTRIES || cachedBytes > MAX_BYTES)) {
    const [oldest, automaton] = cache.entries().next().value as [string, RunAutomaton];
    cache.delete(oldest);
    cachedBytes -= automaton.bytes;
  }
  return made;
}

/** How many automata the cache holds, and their bytes: for tests and diagnostics. */
export const cacheSize = (): { entries: number; bytes: number } => ({ entries: cache.size, bytes: cachedBytes });

/** A pattern compiled when first needed (then remembered), through the cache. */
export function lazyAutomaton(key: string, compile: (budget: Budget) => Steps<RunAutomaton>): LazyAutomaton {
  let automaton: RunAutomaton | undefined;
  return function* (budget) {
    return (automaton ??= yield* cachedAutomaton(key, compile, budget));
  };
}

/** For what compiles at once (a prefix, a literal): as steps that never pause. */
// eslint-disable-next-line require-yield
export function* atOnce(make: () => RunAutomaton): Steps<RunAutomaton> {
  return make();
}
