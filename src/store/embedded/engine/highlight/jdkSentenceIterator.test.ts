import fc from 'fast-check';
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

/** safePosition as first written (every k tried for every candidate j), the reference for the linear one. */
function safePositionReference(text: string, from: number): number {
  const between = (a: number, b: number): boolean => {
    let i = a;
    while (i < b && /[\p{Pe}\p{Pf}"']/u.test(text[i])) i++;
    while (i < b && /[\t\r\f\n\u2028\p{Zs}]/u.test(text[i])) i++;
    while (i < b && /[\p{Ps}\p{Pi}"']/u.test(text[i])) i++;
    return i === b;
  };
  const start = /[^\p{L}\t\r\f\n\u2028\p{Zs}\p{Ps}\p{Pi}\p{Pe}\p{Pf}"'\p{N}!?\u3002\uff01\uff1f.\uff0e,\u2029\p{Mn}\p{Me}\p{Cf}]/u;
  if (from >= text.length) return text.length;
  for (let j = from; j >= 0; j--) {
    const c = text[j];
    if (c === '\u2029' && j < from) return j + 1;
    const period = /[.\uff0e]/u.test(c);
    if (!period && !/[!?\u3002\uff01\uff1f]/u.test(c)) continue;
    for (let k = j + 1; k <= from; k++) {
      const x = text[k];
      if ((start.test(x) || (!period && /[\p{Ll}\p{N}]/u.test(x))) && between(j + 1, k)) return j;
    }
  }
  return 0;
}

describe('safe positions in linear time', () => {
  it('finds what trying every position after each candidate finds (property)', () => {
    const text = fc.string({ unit: fc.constantFrom('a', 'B', '1', ' ', '\n', '.', '!', '?', '。', '"', "'", '(', ')', '«', '»', '-', '#', ',', '\u2029', '\u0301') });
    fc.assert(
      fc.property(text, fc.nat(40), (t, at) => {
        const from = Math.min(at, t.length);
        expect([t, from, safePosition(t, from)]).toEqual([t, from, safePositionReference(t, from)]);
      }),
      { numRuns: 5000 },
    );
  });

  it('walks back over 200,000 characters of periods no rule completes after, once', () => {
    const text = `fox ${'a.'.repeat(100_000)}`;
    const started = performance.now();
    expect(safePosition(text, text.length - 1)).toBe(0);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
