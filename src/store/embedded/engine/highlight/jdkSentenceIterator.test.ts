import { DONE } from './breakIterator';
import { JdkSentenceIterator, safePosition } from './jdkSentenceIterator';

function iterator(text: string): JdkSentenceIterator {
  const it = new JdkSentenceIterator();
  it.setText(text);
  return it;
}

describe("the JDK's sentence iterator, as the highlighter drives it", () => {
  it('finds the safe positions of its backward rules', () => {
    // a period, then a symbol that may start a sentence: the period's position
    expect(safePosition('Ab cd. Xy e.g.; x', 16)).toBe(13);
    // a terminator, then a lower-case letter: the terminator's
    expect(safePosition('Ab cd? ; x', 9)).toBe(5);
    // nothing: the start of the text
    expect(safePosition('no rule here at all', 10)).toBe(0);
    // after a paragraph separator
    expect(safePosition('one\u2029two three', 9)).toBe(4);
  });

  it("answers preceding() from a position that is not a forward boundary (the JDK's)", () => {
    // the forward boundaries are 0, 7, 17: none at 13
    const text = 'Ab cd. Xy e.g.; x';
    expect(iterator(text).preceding(text.length)).toBe(13);
    expect(iterator(text).following(8)).toBe(17);
  });

  it('goes forward from the last break it returned when that is before the offset', () => {
    const text = "café? state lazy e.g.; jumps) bread  red - Paris.";
    // fresh: back to the period of "e.g." (a safe position), nothing after it before 33
    expect(iterator(text).preceding(33)).toBe(20);
    // after following(2) returned 6, preceding(33) walks forward from 6 instead
    const it = iterator(text);
    expect(it.following(2)).toBe(6);
    expect(it.preceding(33)).toBe(6);
  });

  it('answers DONE before the start and after the end', () => {
    const it = iterator('One. Two.');
    expect(it.preceding(0)).toBe(DONE);
    expect(it.following(9)).toBe(DONE);
    expect([it.first(), it.next(), it.next(), it.next(), it.last()]).toEqual([0, 5, 9, DONE, 9]);
  });

  it('walks plain boundaries in a text with characters its rules ignore', () => {
    const it = iterator('Cafe\u0301. Next');
    expect([it.following(0), it.following(7), it.preceding(11)]).toEqual([7, 11, 7]);
  });
});
