import { BoundaryIterator, DONE, SplittingBreakIterator, wholeIterator } from './breakIterator';
import { wordBoundaries } from './jdkBreaks';

describe('BoundaryIterator', () => {
  it('answers preceding and following from its boundaries, DONE beyond them', () => {
    const it = new BoundaryIterator(wordBoundaries);
    it.setText('ab cd');
    expect([it.following(0), it.following(2), it.following(4), it.following(5)]).toEqual([2, 3, 5, DONE]);
    expect([it.preceding(0), it.preceding(1), it.preceding(3), it.preceding(5)]).toEqual([DONE, 0, 2, 3]);
    expect([it.first(), it.next(), it.next(), it.previous(), it.last(), it.next()]).toEqual([0, 2, 3, 2, 5, DONE]);
    expect(() => it.following(6)).toThrow(RangeError);
  });
});

describe("Lucene's SplittingBreakIterator", () => {
  const split = (text: string) => {
    const it = new SplittingBreakIterator(new BoundaryIterator(wordBoundaries), '\u0000');
    it.setText(text);
    return it;
  };

  it('gives the wrapped iterator one value at a time, the separator never inside a piece', () => {
    const it = split('ab cd\u0000ef');
    expect([it.following(0), it.following(3), it.following(4), it.following(5), it.following(6)]).toEqual([2, 5, 5, 6, 8]);
    expect([it.preceding(8), it.preceding(6), it.preceding(5), it.preceding(3)]).toEqual([6, 5, 3, 2]);
  });

  it('reports an empty value and separators at either end as boundaries', () => {
    const it = split('\u0000ab\u0000\u0000cd\u0000');
    const walk = [it.first()];
    for (let b = it.next(); b !== DONE; b = it.next()) walk.push(b);
    expect(walk).toEqual([0, 1, 3, 4, 5, 7, 8]);
  });

  it('makes whole values of a whole-value iterator', () => {
    const it = new SplittingBreakIterator(wholeIterator(), '\u0000');
    it.setText('one two\u0000three');
    expect([it.preceding(5), it.following(5), it.preceding(10), it.following(10)]).toEqual([0, 7, 8, 13]);
  });
});
