/**
 * Compiled patterns, kept by what defines them (kind, pattern, options): compiling costs up to a few
 * milliseconds, and frontends send the same patterns again and again. Compiling is also deferred
 * until the search evaluates the clause (`lazyAutomaton`), within the search's budget: a query of
 * thousands of distinct patterns compiles them between budget checks, and a pattern near its
 * determinization limit pauses while it is determinized, instead of keeping the event loop.
 */
import { RunAutomaton } from '../automaton';
import { Budget, Steps } from '../budget/budget';

const MAX_ENTRIES = 512;
const cache = new Map<string, RunAutomaton>();

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
  cache.set(key, made);
  if (cache.size > MAX_ENTRIES) cache.delete(cache.keys().next().value as string);
  return made;
}

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
