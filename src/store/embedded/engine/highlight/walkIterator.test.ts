import fc from 'fast-check';
import { Budget, Steps, UNLIMITED, runToEnd } from '../budget/budget';
import { BoundaryIterator, BreakIterator } from './breakIterator';
import { sentenceBoundaries, wordBoundaries, wordEnd } from './jdkBreaks';
import { SENTENCE_WALK, WORD_WALK, WalkIterator, WalkRules, wordRestart } from './walkIterator';

type Call = ['following' | 'preceding', number] | ['first' | 'last' | 'next' | 'previous' | 'current', 0];

function answers(it: BreakIterator, text: string, calls: Call[]): number[] {
  it.setText(text);
  return calls.map(([name, at]) => {
    const offset = Math.min(at, text.length);
    switch (name) {
      case 'following':
        return it.following(offset);
      case 'preceding':
        return it.preceding(offset);
      default:
        return it[name]();
    }
  });
}

const text = fc.string({ unit: fc.constantFrom('a', 'B', '1', ' ', '  ', '.', '. ', '? ', 'X. ', '"', '(', '\n', '\u200b', '\u0301', 'é', '東京', '-', ',') });
const calls = fc.array(
  fc.oneof(
    fc.tuple(fc.constantFrom('following' as const, 'preceding' as const), fc.nat(60)),
    fc.tuple(fc.constantFrom('first' as const, 'last' as const, 'next' as const, 'previous' as const, 'current' as const), fc.constant(0 as const)),
  ),
  { maxLength: 20 },
);

describe('WalkIterator: boundaries walked as far as asked', () => {
  it.each([
    ['words', WORD_WALK, wordBoundaries],
    ['sentences', SENTENCE_WALK, sentenceBoundaries],
  ] as const)('answers every call as an iterator over all the %s boundaries, jumping or not (property)', (_name, rules, all) => {
    fc.assert(
      fc.property(text, calls, fc.constantFrom(1, 3, 8, 1000), (t, cs, jump) => {
        expect(answers(new WalkIterator(rules, jump), t, cs)).toEqual(answers(new BoundaryIterator(all), t, cs));
      }),
      { numRuns: 3000 },
    );
  });

  it('finds words ending at every restart point (property)', () => {
    fc.assert(
      fc.property(text, (t) => {
        const bounds = new Set(wordBoundaries(t));
        for (let s = 1; s < t.length; s++) if (wordRestart(t, s)) expect([t, s, bounds.has(s)]).toEqual([t, s, true]);
      }),
      { numRuns: 3000 },
    );
  });

  it('walks only as far as it is asked', () => {
    let steps = 0;
    const counted: WalkRules = {
      ...WORD_WALK,
      step: (t, at) => {
        steps++;
        return wordEnd(t, at);
      },
    };
    const it = new WalkIterator(counted);
    it.setText('one two three four five six seven eight nine ten '.repeat(1000));
    expect(it.following(5)).toBe(7);
    expect(steps).toBeLessThan(10);
    // far ahead: a new window from a space shortly before, not a walk over everything between
    expect([it.preceding(40_002), it.following(40_002)]).toEqual([39_998, 40_003]); // "four" "five"
    expect(steps).toBeLessThan(1000);
    // and back
    expect(it.following(8)).toBe(13);
    expect(steps).toBeLessThan(1020);
  });

  it('walks ahead within the budget when prepared, and keeps the walk of a text given again', () => {
    let steps = 0;
    const it = new WalkIterator({ ...WORD_WALK, restart: undefined, step: (t, at) => (steps++, wordEnd(t, at)) });
    const long = 'word '.repeat(20_000);
    const prepared = it.prepareText(long, 90_000, new Budget(Infinity, 0)) as Steps<void>;
    let pauses = 0;
    for (let next = prepared.next(); !next.done; next = prepared.next()) pauses++;
    expect(pauses).toBeGreaterThan(30); // 36,000 boundaries, a look at the clock every 1,024
    const walked = steps;
    it.setText(`${long}`.slice(0)); // the same text
    expect(it.preceding(90_000)).toBe(89_999);
    expect(it.following(90_000)).toBe(90_004);
    expect(steps - walked).toBeLessThan(3);
    runToEnd(it.prepareText('other text', 5, UNLIMITED) as Steps<void>);
    expect(it.prepareText(long, 100, UNLIMITED)).toBeNull(); // walked that far already
    it.setText(long);
    expect(it.following(10)).toBe(14);
    expect(steps - walked).toBeLessThan(10);
  });
});
