/**
 * The two phases of a query clause, as in Elasticsearch: parsing the JSON (once; checks the shape and
 * every parameter) gives a ParsedQuery, which builds the Lucene query against an index's mapping at
 * search time (QueryBuilder.toQuery), since what a clause means depends on its fields' types.
 */
import { LQuery } from '../lucene/query';
import { QueryLimits } from '../limits';
import { IndexMapping } from '../mapping';

export interface BuildContext {
  readonly mapping: IndexMapping;
  /** `now` for date math, in epoch millis, fixed for the whole search. */
  readonly now: number;
  readonly limits: QueryLimits;
  /** A build in slices (slices.ts): the leaves already built, and the check that pauses it. */
  readonly slices?: LeafSlices<LQuery>;
}

/**
 * What a parse or build run in slices (slices.ts) keeps from one attempt to the next: each leaf
 * clause done, by its JSON object (parse) or its parsed query (build), and the check made after
 * each new leaf, which throws PAUSE once the slice is over.
 */
export interface LeafSlices<T> {
  readonly done: Map<object, { readonly key: unknown; readonly value: T }>;
  check(): void;
}

export interface ParsedQuery {
  toLucene(ctx: BuildContext): LQuery;
}

export interface ParseContext {
  readonly limits: QueryLimits;
  /** Parse a nested query clause found at `path`. */
  parseQuery(json: unknown, path: string): ParsedQuery;
}

/** Parses the body of one clause (the value under its name), found at `path`. */
export type ClauseParser = (body: unknown, path: string, ctx: ParseContext) => ParsedQuery;
