/**
 * A query parsed and built a slice at a time. The clause parsers and builders are plain recursive
 * functions (one file per clause); rather than turning each into steps, a parse or build in slices
 * is attempted again and again: each attempt walks the compound clauses (bool, dis_max, ...) from
 * the top, reuses every leaf clause done by the attempts before, does new leaves until its slice is
 * over, then gives up by throwing PAUSE; the steps yield and attempt again in the next slice. The
 * last attempt does only what is left, and returns what one attempt at once would have returned: the
 * same query, or the same first error (errors are thrown, never kept, so the walk order decides
 * which error comes first, as it does at once). Walking the compound clauses again costs a lookup
 * per leaf per attempt; a bool of 4,000 wildcards took 60 ms to parse and 80 ms to build at once.
 */
import { Steps } from '../budget/budget';
import { LQuery } from '../lucene/query';
import { BuildContext, LeafSlices, ParsedQuery } from './context';

/** Thrown through the clause parsers and builders when the slice is over; never escapes inSlices. */
class Pause {}
const PAUSE = new Pause();

/**
 * Runs `attempt` until it returns, pausing (yielding) between attempts: the slices it is given keep
 * what each attempt did, and its check throws PAUSE once `over()` says the slice is over (only right
 * after a new leaf is done: every attempt but the last does at least one).
 */
export function* inSlices<T, L>(attempt: (slices: LeafSlices<L>) => T, over: () => boolean): Steps<T> {
  const slices: LeafSlices<L> = {
    done: new Map(),
    check() {
      if (over()) throw PAUSE;
    },
  };
  for (;;) {
    try {
      return attempt(slices);
    } catch (err) {
      if (err !== PAUSE) throw err;
    }
    yield;
  }
}

/**
 * A parsed leaf clause that a build in slices (BuildContext.slices) builds once: later attempts of
 * the same build reuse its Lucene query. Built in any other context, it is built as it always is.
 */
export function sliceableLeaf(parsed: ParsedQuery): ParsedQuery {
  return {
    toLucene(ctx: BuildContext): LQuery {
      const slices = ctx.slices;
      if (slices === undefined) return parsed.toLucene(ctx);
      const done = slices.done.get(parsed);
      if (done !== undefined) return done.key === ctx ? done.value : parsed.toLucene(ctx);
      const query = parsed.toLucene(ctx);
      slices.done.set(parsed, { key: ctx, value: query });
      slices.check();
      return query;
    },
  };
}
