import { BoundaryIterator, SplittingBreakIterator, wholeIterator } from './breakIterator';
import { sentenceBoundaries } from './jdkBreaks';
import { OffsetMatch, Passage, bestPassages, norm, scorePassage, tf, weight } from './passages';

const m = (start: number, end: number, term: string, freq = 1): OffsetMatch => ({ start, end, term, freq });

describe('PassageScorer', () => {
  it('scores a passage as BM25 over its terms, times a norm of its start (worked by hand)', () => {
    // content and passage of 87 characters (the pivot): numDocs = 2, weight = 2.2 ln(1 + 2.5 / 1.5)
    expect(weight(87, 1)).toBeCloseTo(2.1578243, 6);
    // tf = 1 / (1 + 1.2 (0.25 + 0.75 * 87 / 87))
    expect(tf(1, 87)).toBeCloseTo(0.45454544, 7);
    // norm = 1 + 1 / ln(87 + 0)
    expect(norm(0)).toBeCloseTo(1.2239187, 6);
    const passage: Passage = { start: 0, end: 87, score: 0, matches: [m(4, 9, 'quick')] };
    expect(scorePassage(passage, 87)).toBeCloseTo(1.2004552, 6);
  });

  it('counts each distinct term once, with its frequency in the passage and in the whole text', () => {
    // "a" twice here (twice in the text), "b" once: (tf(2, 30) weight(200, 2) + tf(1, 30) weight(200, 1)) norm(10)
    const passage: Passage = { start: 10, end: 40, score: 0, matches: [m(10, 11, 'a', 2), m(12, 13, 'b', 1), m(20, 21, 'a', 2)] };
    expect(scorePassage(passage, 200)).toBeCloseTo(3.9991307, 6);
  });
});

describe('the passages of a text (FieldHighlighter.highlightOffsetsEnums)', () => {
  const sentences = (text: string) => {
    const breaks = new SplittingBreakIterator(new BoundaryIterator(sentenceBoundaries), '\u0000');
    breaks.setText(text);
    return breaks;
  };

  it('makes one passage per sentence with matches, in text order', () => {
    const text = 'One fox here. Nothing. Two fox fox there.';
    const passages = bestPassages([m(4, 7, 'fox', 3), m(27, 30, 'fox', 3), m(31, 34, 'fox', 3)], sentences(text), 5);
    expect(passages.map((p) => [p.start, p.end, p.matches.length])).toEqual([
      [0, 14, 1],
      [23, 41, 2],
    ]);
  });

  it('keeps the best ones when there are more than asked for, still in text order', () => {
    const text = 'One fox here. Nothing. Two fox fox there.';
    const passages = bestPassages([m(4, 7, 'fox', 3), m(27, 30, 'fox', 3), m(31, 34, 'fox', 3)], sentences(text), 1);
    expect(passages.map((p) => p.start)).toEqual([23]);
  });

  it('never spans two values, and a whole-value iterator gives each value', () => {
    const text = 'a fox\u0000b fox';
    expect(bestPassages([m(2, 5, 'fox', 2), m(8, 11, 'fox', 2)], sentences(text), 5).map((p) => [p.start, p.end])).toEqual([
      [0, 5],
      [6, 11],
    ]);
    const whole = new SplittingBreakIterator(wholeIterator(), '\u0000');
    whole.setText(text);
    expect(bestPassages([m(8, 11, 'fox', 2)], whole, 5).map((p) => [p.start, p.end])).toEqual([[6, 11]]);
  });

  it('has no passage without matches', () => {
    expect(bestPassages([], sentences('Some text.'), 5)).toEqual([]);
  });
});
