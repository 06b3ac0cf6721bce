import fc from 'fast-check';
import { ruleWordEnd, sentenceBoundaries, sentenceEnd, wordBoundaries, wordEnd } from './jdkBreaks';

const sentences = (text: string) => Array.from(sentenceBoundaries(text));
const words = (text: string) => Array.from(wordBoundaries(text));

describe("the JDK's sentence boundaries", () => {
  it.each([
    ['Hello world. This is a test. And more!', [0, 13, 29, 38]],
    // a lower-case word or a digit after a period does not start a sentence
    ['e.g. the test. Ok?Yes! no. 3.14 is pi.', [0, 15, 18, 23, 38]],
    // a newline is a space, not a break
    ['Line one\nLine two.\nNext', [0, 19, 23]],
    // opening punctuation or a symbol before a letter starts one, even lower case
    ['Ab. (note) x', [0, 4, 12]],
    ['Ab. #tag x', [0, 4, 10]],
    // two spaces and any letter
    ['a.  x', [0, 4, 5]],
    // a quote closes the sentence and the break comes after it
    ['He said "hi." Then left.', [0, 14, 24]],
    // a dangling period before symbols at the end stands alone
    ['Côte e.g.:', [0, 8, 9, 10]],
    // a terminator takes what follows it up to the next word
    ['Stop?! "Yes." no', [0, 7, 16]],
  ])('%p', (text, expected) => {
    expect(sentences(text)).toEqual(expected);
  });

  it('ignores combining marks and format characters, which stay with the character before them', () => {
    expect(sentences('Cafe\u0301. Next')).toEqual([0, 7, 11]);
  });

  it('gives a sentence end from any position (the iterator walks forward from there)', () => {
    const text = 'A b. C d. E f.';
    expect(sentenceEnd(text, 0)).toBe(5);
    expect(sentenceEnd(text, 5)).toBe(10);
    expect(sentenceEnd(text, 10)).toBe(14);
  });
});

describe("the JDK's word boundaries", () => {
  it.each([
    ['Hello, world', [0, 5, 6, 7, 12]],
    // hyphens, apostrophes, quotes, periods and underscores inside words
    ['state-of-the-art don\'t foo_bar U.S say"hi', [0, 16, 17, 22, 23, 30, 31, 34, 35, 41]],
    // numbers with their punctuation, prefixes and suffixes
    ['1,000.5 $100 50% #1 .5', [0, 7, 8, 12, 13, 16, 17, 19, 20, 22]],
    // whitespace runs with one line separator; kanji and kana runs
    ['a  \nb\n\nc', [0, 1, 4, 5, 6, 7, 8]],
    ['東京はカタカナ', [0, 2, 3, 7]],
  ])('%p', (text, expected) => {
    expect(words(text)).toEqual(expected);
  });
});

describe('the fast path of ASCII words', () => {
  it('ends each word where the rules alone end it (property)', () => {
    const text = fc.string({ unit: fc.constantFrom('a', 'Z', '7', ' ', '\t', '\n', '\r', '\f', '\v', '-', '_', '"', "'", '.', ',', ':', ';', '%', '&', '$', '#', '@', '!', '(', '\u0301', '\u00a0', '\u2028', '\u066b', '\u00a2', 'é', '東', 'カ', '\u200b') });
    fc.assert(
      fc.property(text, (t) => {
        for (let at = 0; at < t.length; at++) expect([t, at, wordEnd(t, at)]).toEqual([t, at, ruleWordEnd(t, at)]);
      }),
      { numRuns: 3000 },
    );
  });
});
