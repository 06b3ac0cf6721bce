/**
 * Compiled patterns, kept by what defines them (kind, pattern, options): compiling costs up to a few
 * milliseconds, and frontends send the same patterns again and again. Compiling is also deferred
 * until the search evaluates the clause (`lazyAutomaton`), where the search's budget is checked
 * between clauses: a query of thousands of distinct patterns compiles them one slice at a time
 * instead of keeping the event loop for seconds while it is parsed.
 */
import { RunAutomaton } from '../automaton';

const MAX_ENTRIES = 512;
const cache = new Map<string, RunAutomaton>();

/** The automaton `compile` makes for `key`, from the cache when it was made before (least recently used out first). */
export function cachedAutomaton(key: string, compile: () => RunAutomaton): RunAutomaton {
  const found = cache.get(key);
  if (found !== undefined) {
    cache.delete(key);
    cache.set(key, found);
    return found;
  }
  const made = compile();
  cache.set(key, made);
  if (cache.size > MAX_ENTRIES) cache.delete(cache.keys().next().value as string);
  return made;
}

/** A pattern compiled when first needed (then remembered), through the cache. */
export function lazyAutomaton(key: string, compile: () => RunAutomaton): () => RunAutomaton {
  let automaton: RunAutomaton | undefined;
  return () => (automaton ??= cachedAutomaton(key, compile));
}
