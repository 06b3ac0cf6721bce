/**
 * What every aggregation shares: the parsed tree (AggNode), the context a search runs it in
 * (AggContext), and the JSON result each one answers (Elasticsearch 8's response shapes).
 */
import { Budget, Steps } from '../budget/budget';
import { InvertedIndex } from '../invertedIndex';
import { QueryLimits } from '../limits';
import { Matches } from '../lucene/matches';
import { IndexMapping } from '../mapping';
import { ParsedQuery } from '../query/context';
import { BucketCounter } from './bucketCounter';

/** One aggregation's answer, as Elasticsearch writes it (`{"value": 1.0}`, `{"buckets": [...]}`...). */
export type AggResult = Record<string, unknown>;

/** A document set: live document numbers, ascending. */
export type DocSet = Int32Array;

export interface AggContext {
  readonly index: InvertedIndex;
  readonly mapping: IndexMapping;
  readonly limits: QueryLimits;
  /** `now` of the search (date math), epoch millis. */
  readonly now: number;
  readonly budget: Budget;
  /** search.max_buckets, over the whole answer. */
  readonly buckets: BucketCounter;
  /** Every document the caller may see, whatever the query (what `global` runs over). */
  visibleDocs(): Steps<DocSet>;
  /** The documents of the index matching a query clause (filter, filters), tenant filter not applied. */
  queryMatches(query: ParsedQuery): Steps<Matches>;
  /** The score of a matching document in the search (top_hits sorted by `_score`). */
  scoreOf(doc: number): number;
}

/** A parsed aggregation of one type, ready to run over document sets. */
export interface Aggregator {
  readonly type: string;
  /** Runs over `docs`, with its sub-aggregations (`subs`) in each bucket. */
  run(docs: DocSet, ctx: AggContext, subs: readonly AggNode[]): Steps<AggResult>;
}

export interface AggNode {
  readonly name: string;
  readonly agg: Aggregator;
  readonly subs: readonly AggNode[];
  /** Elasticsearch's `meta`: echoed as the first member of the answer. */
  readonly meta?: Record<string, unknown>;
}

/** What an aggregation's parser is given besides its body. */
export interface AggParseContext {
  /** The aggregation's name (for messages). */
  readonly name: string;
  readonly limits: QueryLimits;
  /** The type of the enclosing aggregation, null at the top level. */
  readonly parent: string | null;
  /** Its sub-aggregations, already parsed (orders may name them). */
  readonly subs: readonly AggNode[];
  /** Parses a query clause (filter, filters). */
  parseQuery(json: unknown, where: string): ParsedQuery;
}

export const EMPTY_DOCS: DocSet = new Int32Array(0);
