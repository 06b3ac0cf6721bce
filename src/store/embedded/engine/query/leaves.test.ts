import { InvertedIndex } from '../invertedIndex';
import { IndexMapping } from '../mapping';
import { LQuery } from '../lucene/query';
import { compilePrefix } from '../automaton';
import { fieldExists, idsIn, inRange, pointEquals, pointRange, termRange, termsAccepted, termsIn } from './leaves';

const mapping = new IndexMapping({ keyword: ['k'] });
const index = new InvertedIndex();
for (const [id, doc] of [
  ['a', { k: ['x', 'y'], n: 1 }],
  ['b', { k: 'y', n: [2, 3] }],
  ['c', { n: 3 }],
] as const) {
  index.addSource(id, doc, mapping);
}
const docs = (q: LQuery) => (q.type === 'leaf' ? [...q.docs(index)].sort() : q.type);

describe('constant-score leaves', () => {
  it('compare ranges', () => {
    expect(inRange(2, { lower: 1, includeLower: false, upper: 2, includeUpper: true })).toBe(true);
    expect(inRange(1, { lower: 1, includeLower: false, upper: null, includeUpper: true })).toBe(false);
  });

  it('read points', () => {
    expect(docs(pointEquals('n', 3))).toEqual([1, 2]);
    expect(docs(pointRange('n', { lower: 2, includeLower: true, upper: 3, includeUpper: false }))).toEqual([1]);
    expect(docs(pointRange('n', { lower: 3, includeLower: false, upper: 3, includeUpper: true }))).toBe('matchNone');
    expect(docs(pointEquals('missing', 1))).toEqual([]);
  });

  it('read terms', () => {
    expect(docs(termsIn('k', ['y', 'x']))).toEqual([0, 1]);
    expect(docs(termsIn('k', []))).toBe('matchNone');
    expect(docs(termRange('k', 'x', false, null, true))).toEqual([0, 1]);
    expect(docs(termsAccepted('k', 'test', compilePrefix('x')))).toEqual([0]);
  });

  it('read ids and presence', () => {
    expect(docs(idsIn(['c', 'a', 'zz']))).toEqual([0, 2]);
    expect(docs(fieldExists('k'))).toEqual([0, 1]);
  });
});
