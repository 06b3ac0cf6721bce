/**
 * search.max_buckets: Elasticsearch 8 counts the buckets of every multi-bucket aggregation of the
 * answer, at every level (MultiBucketConsumerService.MultiBucketConsumer), and fails the search with
 * a too_many_buckets_exception (400) past the limit. Aggregations count a bucket list before they
 * build it (a histogram's empty buckets are counted from its bounds first), so no request can make
 * the engine allocate more than the limit.
 */
import { QueryLimitError } from '../../../port';

export const DEFAULT_MAX_BUCKETS = 65_536;

export function tooManyBuckets(limit: number): QueryLimitError {
  return new QueryLimitError(
    'too_many_buckets',
    { limit },
    `Trying to create too many buckets. Must be less than or equal to: [${limit}] but this number of buckets was exceeded. This limit can be set by changing the [search.max_buckets] cluster level setting.`,
  );
}

export class BucketCounter {
  private count = 0;

  constructor(readonly limit: number) {}

  /** Counts `n` more buckets; throws the too_many_buckets error past the limit. */
  add(n: number): void {
    this.count += n;
    if (this.count > this.limit) throw tooManyBuckets(this.limit);
  }

  get total(): number {
    return this.count;
  }
}
