import { Matches } from '../lucene/matches';
import { terminateAfter, withMinScore, withPostFilter } from './hitFilters';

const list = (docs: number[], scores: number[] | null = null) => Matches.list(Int32Array.from(docs), docs.length, scores === null ? null : Float32Array.from(scores), 1);
const docsOf = (m: Matches) => Array.from(m.docList());

describe('hit filters (QueryPhaseCollector)', () => {
  it('min_score keeps the documents scoring at least it', () => {
    expect(docsOf(withMinScore(list([1, 2, 3], [0.5, 2, 1]), 1))).toEqual([2, 3]);
    expect(withMinScore(list([1, 2]), 1).size).toBe(2);
    expect(withMinScore(list([1, 2]), 1.5).size).toBe(0);
  });

  it('post_filter keeps the matches the filter holds, with their scores', () => {
    const out = withPostFilter(list([1, 2, 3], [0.5, 2, 1]), list([2, 3, 4]), true);
    expect(docsOf(out)).toEqual([2, 3]);
    expect([out.scoreAt(0), out.scoreAt(1)]).toEqual([2, 1]);
    expect(withPostFilter(list([1]), null, true).size).toBe(0);
  });

  it('terminate_after keeps the first hits, the aggregations up to the next one', () => {
    const cut = terminateAfter(list([2, 5, 9]), list([1, 2, 3, 5, 7, 9]), 2);
    expect(cut.terminated).toBe(true);
    expect(docsOf(cut.hits)).toEqual([2, 5]);
    expect(docsOf(cut.aggs)).toEqual([1, 2, 3, 5, 7]);
    expect(terminateAfter(list([2]), list([2]), 2).terminated).toBe(false);
  });
});
