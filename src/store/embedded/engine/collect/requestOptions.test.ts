import { InvalidQueryError } from '../../../port';
import { parseRequestOptions } from './requestOptions';
import { TRACK_ALL, TRACK_NONE } from './totalHits';

const page = { from: 0, size: 10 };

describe('request options', () => {
  it('reads the defaults and every member', () => {
    expect(parseRequestOptions(page)).toMatchObject({ track: TRACK_ALL, terminateAfter: 0, minScore: null, postFilter: null, explain: false, collapse: null });
    const options = parseRequestOptions({ ...page, track_total_hits: false, terminate_after: 3, min_score: 0.5, post_filter: { match_all: {} }, explain: true, collapse: { field: 'k' } });
    expect(options).toMatchObject({ track: TRACK_NONE, terminateAfter: 3, minScore: 0.5, explain: true, collapse: { field: 'k' } });
    expect(options.postFilter).not.toBeNull();
  });

  it('refuses bad values, unsupported clauses and collapse with search_after on another sort', () => {
    expect(() => parseRequestOptions({ ...page, terminate_after: -1 })).toThrow(InvalidQueryError);
    expect(() => parseRequestOptions({ ...page, min_score: Infinity })).toThrow(InvalidQueryError);
    expect(() => parseRequestOptions({ ...page, explain: 1 as never })).toThrow(InvalidQueryError);
    expect(() => parseRequestOptions({ ...page, post_filter: { nope: {} } })).toThrow('unsupported query clause "nope" at post_filter');
    expect(() => parseRequestOptions({ ...page, collapse: { field: 'k' }, sort: [{ n: 'asc' }], search_after: [1] })).toThrow('cannot use `collapse` in conjunction with `search_after`');
    expect(() => parseRequestOptions({ ...page, collapse: { field: 'k' }, sort: [{ k: 'asc' }], search_after: ['x'] })).not.toThrow();
  });
});
