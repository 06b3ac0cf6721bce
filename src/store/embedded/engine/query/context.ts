/**
 * The two phases of a query clause, as in Elasticsearch: parsing the JSON (once; checks the shape and
 * every parameter) gives a ParsedQuery, which builds the Lucene query against an index's mapping at
 * search time (QueryBuilder.toQuery), since what a clause means depends on its fields' types.
 */
import { LQuery } from '../lucene/query';
import { QueryLimits } from '../limits';
import { IndexMapping } from '../mapping';
import type { DoneAhead } from './slices';

export interface BuildContext {
  readonly mapping: IndexMapping;
  /** `now` for date math, in epoch millis, fixed for the whole search. */
  readonly now: number;
  readonly limits: QueryLimits;
  /** Leaves built ahead (slices.ts), by their parsed query. */
  readonly builtAhead?: DoneAhead<LQuery>;
  /** The nested field whose objects the query being built matches (inside a `nested` query: nested.ts). */
  readonly nestedPath?: string;
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
