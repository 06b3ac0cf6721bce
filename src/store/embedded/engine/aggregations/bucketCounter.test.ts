import { QueryLimitError } from '../../../port';
import { BucketCounter, DEFAULT_MAX_BUCKETS, tooManyBuckets } from './bucketCounter';

describe('BucketCounter', () => {
  it('counts up to the limit and throws Elasticsearch’s error past it', () => {
    const counter = new BucketCounter(3);
    counter.add(2);
    counter.add(1);
    expect(counter.total).toBe(3);
    expect(() => counter.add(1)).toThrow(QueryLimitError);
    expect(DEFAULT_MAX_BUCKETS).toBe(65536);
    const err = tooManyBuckets(65536);
    expect(err.limit).toBe('too_many_buckets');
    expect(err.props).toEqual({ limit: 65536 });
    expect(err.message).toBe('Trying to create too many buckets. Must be less than or equal to: [65536] but this number of buckets was exceeded. This limit can be set by changing the [search.max_buckets] cluster level setting.');
  });
});
