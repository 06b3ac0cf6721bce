/**
 * A large query parsed and built a slice at a time. The clause parsers and builders are plain
 * recursive functions (one file per clause); rather than turning each into steps, the leaf clauses
 * (every clause but bool, dis_max, constant_score, function_score and boosting) are done ahead, in
 * document order, a few between two looks at the clock, pausing when the slice is over: parsed ahead
 * from the JSON (parse.ts parseQuerySteps: a walk that names each clause by its path, as the
 * compound clauses do), then built ahead (buildLeavesAhead). The ordinary recursive parse and build
 * then run at once, finding each leaf done: a lookup instead of the work (a bool of 4,000 wildcards
 * took 60 ms to parse and 80 ms to build at once). A leaf that fails ahead is left for that pass,
 * which meets it in its own order: the same query, and the same first error, as at once.
 */
import { Budget, Steps } from '../budget/budget';
import { LQuery } from '../lucene/query';
import { BuildContext, ParsedQuery } from './context';

/** Leaves done ahead: by their JSON object (parse, with the path it was found at) or by their parsed query (build, with the context). */
export type DoneAhead<T> = Map<object, { readonly key: unknown; readonly value: T }>;

/**
 * A parsed leaf clause that a build with leaves built ahead (BuildContext.builtAhead) builds once.
 * Built in any other context, it is built as it always is.
 */
export function buildableAhead(parsed: ParsedQuery): ParsedQuery {
  return {
    toLucene(ctx: BuildContext): LQuery {
      const done = ctx.builtAhead;
      if (done === undefined) return parsed.toLucene(ctx);
      const ahead = done.get(parsed);
      if (ahead !== undefined && ahead.key === ctx) return ahead.value;
      const query = parsed.toLucene(ctx);
      if (ahead === undefined) done.set(parsed, { key: ctx, value: query });
      return query;
    },
  };
}

/** Builds the leaves parsed ahead (in document order) in `ctx`, pausing when the budget's slice is over; what fails is left for the build itself. */
export function* buildLeavesAhead(leaves: readonly ParsedQuery[], ctx: BuildContext, budget: Budget): Steps<void> {
  for (const leaf of leaves) {
    try {
      leaf.toLucene(ctx);
    } catch {
      // built again, in its order, by the build itself: its error comes then, if it is the first
    }
    if (budget.sliceOver()) yield;
  }
}
