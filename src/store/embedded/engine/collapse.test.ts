import { InvalidQueryError } from '../../port';
import { checkCollapseField, collapseSteps, parseCollapse } from './collapse';
import { IndexMapping } from './mapping';
import { runToEnd } from './budget/budget';

describe('collapse', () => {
  it('reads the field and inner hits (one or a list), with their defaults', () => {
    expect(parseCollapse({ field: 'f' })).toEqual({ field: 'f', innerHits: [] });
    expect(parseCollapse({ field: 'f', inner_hits: {} })?.innerHits).toEqual([{ name: 'f', from: 0, size: 3, sort: null, source: { enabled: true, includes: [], excludes: [] } }]);
    expect(parseCollapse({ field: 'f', inner_hits: [{ name: 'a' }, { name: 'b', size: 1, _source: false }] })?.innerHits.map((i) => [i.name, i.size, i.source])).toEqual([
      ['a', 3, { enabled: true, includes: [], excludes: [] }],
      ['b', 1, null],
    ]);
  });

  it('refuses bad shapes and fields that cannot be collapsed on', () => {
    expect(() => parseCollapse({ field: 'f', inner_hits: [{ name: 'a' }, { name: 'a' }] })).toThrow('[inner_hits] already contains an entry for key [a]');
    expect(() => parseCollapse({ field: 3 })).toThrow(InvalidQueryError);
    expect(() => parseCollapse({ field: 'f', inner_hits: { size: -1 } })).toThrow(InvalidQueryError);
    expect(() => parseCollapse({ field: 'f', inner_hits: { highlight: {} } })).toThrow('unsupported inner_hits parameter "highlight"');
    const mapping = new IndexMapping({ boolean: ['b'], keyword: ['k'] });
    expect(() => checkCollapseField({ field: 'b', innerHits: [] }, mapping)).toThrow('collapse is not supported for the field [b] of the type [boolean]');
    expect(() => checkCollapseField({ field: 'k', innerHits: [] }, mapping)).not.toThrow();
  });

  it('groups by value, each group its best, the groups in order of their best', () => {
    const docs = Int32Array.from([0, 1, 2, 3, 4]);
    const scores = [1, 5, 3, 5, 2];
    const keys = ['a', 'b', 'a', null, 'b'];
    const groups = runToEnd(
      collapseSteps(docs, 5, (d) => keys[d], (i) => ({ doc: docs[i], score: scores[i] }), (a, b) => b.score - a.score || a.doc - b.doc, () => false),
    );
    expect(groups.map((g) => [g.key, g.best.doc, g.members])).toEqual([
      ['b', 1, [1, 4]],
      [null, 3, [3]],
      ['a', 2, [0, 2]],
    ]);
  });
});
