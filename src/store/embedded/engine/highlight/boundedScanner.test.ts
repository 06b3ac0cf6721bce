import { BoundaryIterator } from './breakIterator';
import { BoundedBreakIteratorScanner } from './boundedScanner';
import { wordBoundaries } from './jdkBreaks';
import { JdkSentenceIterator } from './jdkSentenceIterator';

function scanner(text: string, maxLen: number): BoundedBreakIteratorScanner {
  const it = new BoundedBreakIteratorScanner(new JdkSentenceIterator(), new BoundaryIterator(wordBoundaries), maxLen);
  it.setText(text);
  return it;
}

/** The passage the highlighter takes around a match: preceding(center), then following(). */
function passage(it: BoundedBreakIteratorScanner, start: number, end: number): [number, number] {
  const center = start + Math.trunc((end - start) / 2);
  const from = it.preceding(Math.max(start + 1, center));
  return [from, it.following(Math.min(end - 1, center))];
}

describe("Elasticsearch's BoundedBreakIteratorScanner (fragment_size)", () => {
  // sentences at 0, 9, 21 and the end (30)
  const text = 'One two. Three four. Five six.';

  it('takes the sentence of the match, extended to the last sentence end within fragment_size of its start', () => {
    // "four" at [15, 19): its sentence starts at 9; 9 + 20 = 29 is before the last boundary, so the end is 21
    expect(passage(scanner(text, 20), 15, 19)).toEqual([9, 21]);
    // 9 + 30 reaches past the end of the text: up to the end
    expect(passage(scanner(text, 30), 15, 19)).toEqual([9, 30]);
  });

  it('cuts a sentence longer than fragment_size at words: fragment_size before the match at most, the room left after it', () => {
    // one sentence of 56 characters; "theta" at [40, 45), center 42; words start at 17 ("delta") ... 46 ("iota")
    const long = 'alpha beta gamma delta epsilon zeta eta theta iota kappa';
    // left: the word boundary before 42 - 20 = 22 is 17; room left: max(0, 20 - (42 - 17)) = 0; right: the word end after 42, 45
    expect(passage(scanner(long, 20), 40, 45)).toEqual([17, 45]);
    expect(long.slice(17, 45)).toBe('delta epsilon zeta eta theta');
    // with room: fragment_size 40 keeps the start (42 - 40 = 2 < 0 + ...) and ends at the word after 0 + 40
    expect(passage(scanner(long, 40), 40, 45)).toEqual([0, 45]);
  });

  it('goes on within the same long sentence for the next matches', () => {
    const long = 'alpha beta gamma delta epsilon zeta eta theta iota kappa';
    const it = scanner(long, 20);
    // "beta": the sentence is too long; room left 20 - 8 = 12: up to the word end after 8 + 12 = 20, 22
    expect(passage(it, 6, 10)).toEqual([0, 22]);
    // "theta", within the same sentence: from where the last passage ended (22); 42 - 20 is not past it;
    // no room left (20 - (42 - 22) = 0): up to the word end after 42
    expect(passage(it, 40, 45)).toEqual([22, 45]);
  });
});
