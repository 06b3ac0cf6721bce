import fc from 'fast-check';
import { InvertedIndex } from '../invertedIndex';
import { IndexMapping } from '../mapping';
import { inRange, NumericRange } from '../query/leaves';
import { pointRangeDocs } from './pointRanges';

const bound = fc.option(fc.integer({ min: -5, max: 45 }), { nil: null });

describe('pointRangeDocs', () => {
  it('gives the live documents with a value in the range, from a document on, as a scan of every document does', () => {
    fc.assert(
      fc.property(
        // each document: its values (none, one or several; some left without the field) and whether it is removed
        fc.array(fc.record({ values: fc.array(fc.integer({ min: 0, max: 40 }), { maxLength: 3 }), removed: fc.boolean() }), { maxLength: 120 }),
        fc.record({ lower: bound, includeLower: fc.boolean(), upper: bound, includeUpper: fc.boolean() }),
        fc.nat({ max: 130 }),
        (docs, range: NumericRange, fromDoc) => {
          const index = new InvertedIndex();
          const mapping = new IndexMapping();
          docs.forEach((d, i) => index.addSource(`d${i}`, d.values.length === 0 ? { other: 1 } : { n: d.values }, mapping));
          docs.forEach((d, i) => d.removed && index.remove(`d${i}`));
          const f = index.field('n');
          const expected = docs.flatMap((d, i) => (!d.removed && i >= fromDoc && d.values.some((v) => inRange(v, range)) ? [i] : []));
          expect(f === undefined ? [] : [...pointRangeDocs(f, range, fromDoc, index.maxDoc).docList()]).toEqual(expected);
        },
      ),
    );
  });

  it('counts a document with several values in the range once, in either form (a list, a bitset)', () => {
    const index = new InvertedIndex();
    const mapping = new IndexMapping();
    for (let i = 0; i < 400; i++) index.addSource(`d${i}`, { n: [i, i + 1, 1000] }, mapping);
    const f = index.field('n')!;
    const few = pointRangeDocs(f, { lower: 10, includeLower: true, upper: 11, includeUpper: true }, 0, index.maxDoc);
    expect(few.isBits).toBe(false);
    expect([...few.docList()]).toEqual([9, 10, 11]);
    const many = pointRangeDocs(f, { lower: 1000, includeLower: true, upper: null, includeUpper: false }, 0, index.maxDoc);
    expect(many.size).toBe(400);
    const spread = pointRangeDocs(f, { lower: 0, includeLower: true, upper: 50, includeUpper: true }, 0, index.maxDoc);
    expect(spread.isBits).toBe(true);
    expect(spread.size).toBe(51);
  });

  it('keeps the count of documents with several values as they come and go', () => {
    const index = new InvertedIndex();
    const mapping = new IndexMapping();
    index.addSource('one', { n: 1 }, mapping);
    index.addSource('two', { n: [1, 2] }, mapping);
    expect(index.field('n')!.multiValued).toBe(1);
    index.remove('two');
    expect(index.field('n')!.multiValued).toBe(0);
    index.remove('one');
    expect(index.field('n')!.multiValued).toBe(0);
  });
});
