import fc from 'fast-check';
import { standardTokenize } from './analysis/standardTokenizer';
import { analyzeAscii, analyzeText, lastTokenEndsText, lowercaseTerm, segmentText } from './analyzer';

describe('standard analyzer (Lucene\'s StandardTokenizer, lowercased)', () => {
  it('splits on word boundaries and lowercases', () => {
    expect(analyzeText('French Guiana')).toEqual(['french', 'guiana']);
    expect(analyzeText('  South-Africa!! ')).toEqual(['south', 'africa']);
    expect(analyzeText('')).toEqual([]);
    expect(analyzeText('!!! --- ...')).toEqual([]);
  });

  it('keeps the tokens Lucene StandardTokenizer keeps whole', () => {
    expect(analyzeText("don't stop")).toEqual(["don't", 'stop']);
    expect(analyzeText('1,000.5 foo_bar U.S.A. user@example.com')).toEqual(['1,000.5', 'foo_bar', 'u.s.a', 'user', 'example.com']);
    expect(analyzeText('Café ÜBER Ωmega')).toEqual(['café', 'über', 'ωmega']);
  });

  it('lowercases per code point like Java Character.toLowerCase', () => {
    expect(lowercaseTerm('İSTANBUL')).toBe('istanbul');
    expect(lowercaseTerm('ΟΔΟΣ')).toBe('οδοσ'); // no final sigma: each code point alone
    expect(lowercaseTerm('ABC')).toBe('abc');
  });

  it('makes a token of each Han and Hiragana character and of each emoji sequence, as Lucene does', () => {
    expect(analyzeText('東京都 日本語')).toEqual(['東', '京', '都', '日', '本', '語']);
    expect(analyzeText('ひらがな カタカナ 한국어')).toEqual(['ひ', 'ら', 'が', 'な', 'カタカナ', '한국어']);
    expect(analyzeText('hello 😀 world 👍🏽 👨‍👩‍👧 🇫🇷')).toEqual(['hello', '😀', 'world', '👍🏽', '👨‍👩‍👧', '🇫🇷']);
  });

  it('cuts tokens longer than 255 characters', () => {
    const long = 'a'.repeat(600);
    expect(analyzeText(long).map((t) => t.length)).toEqual([255, 255, 90]);
  });

  it('tokenizes ASCII text on a fast path that agrees with the tokenizer', () => {
    expect(analyzeAscii('Hello, World. x')).toEqual(['hello', 'world', 'x']);
    expect(analyzeAscii('a.b')).toBeNull(); // joined by the tokenizer: left to it
    expect(analyzeAscii('foo_bar')).toBeNull();
    expect(analyzeAscii('café')).toBeNull();
    const ascii = fc.string({ unit: fc.constantFrom(...'aZ09 .,;:\'"_-!\t\n@#$%()[]{}/\\|~`^*+=<>?&'.split(''), String.fromCharCode(0), String.fromCharCode(127)), maxLength: 16 });
    fc.assert(
      fc.property(ascii, (text) => {
        const fast = analyzeAscii(text);
        if (fast !== null) expect(fast).toEqual(segmentText(text));
        expect(analyzeText(text)).toEqual(segmentText(text));
      }),
      { numRuns: 5000 },
    );
  });
});

/** The tokenizer over the whole text at once, lower-cased: what the pieces must give. */
function reference(text: string): string[] {
  return standardTokenize(text).map((t) => lowercaseTerm(t.text));
}

describe('long texts, a piece at a time (wordSegments.ts), plain ASCII runs scanned', () => {
  it('gives the tokens of one scan of the whole text (property)', () => {
    const atoms = ['a', 'Bc', '7', ' ', '  ', '.', ', ', "'", '"', '-', '_', '!', '\n', '\t', 'é', 'e\u0301', '\u200b', '東京', 'カナ', 'א', '😀', "don't ", 'U.S. ', '3.5 ', 'x'.repeat(300), '東'.repeat(300)];
    const text = fc.array(fc.constantFrom(...atoms), { maxLength: 120 }).map((a) => a.join(''));
    fc.assert(
      fc.property(text, (t) => {
        expect(segmentText(t)).toEqual(reference(t));
        expect(analyzeText(t)).toEqual(reference(t));
      }),
      { numRuns: 3000 },
    );
  });

  it('analyzes 400,000 characters of prose, and 300,000 ideographs without a place to cut', () => {
    const sentence = "Don't stop: the U.S. café is 3.5 km away, e.g. near Zürich. ";
    const tokens = analyzeText(sentence.repeat(6700));
    expect(tokens.length).toBe(6700 * 12);
    expect(tokens.slice(0, 12)).toEqual(reference(sentence));
    const ideographs = analyzeText('東京都'.repeat(100000));
    expect(ideographs.length).toBe(300000);
    expect(ideographs.slice(0, 4)).toEqual(['東', '京', '都', '東']);
  });
});

describe('lastTokenEndsText (where a bool_prefix query takes its last term as a prefix)', () => {
  it('is true when the last token runs to the end of the text', () => {
    expect(lastTokenEndsText('united k')).toBe(true);
    expect(lastTokenEndsText('Fran')).toBe(true);
    expect(lastTokenEndsText('côte d')).toBe(true);
    expect(lastTokenEndsText("côte d'i")).toBe(true);
  });

  it('is false after a space or punctuation, and without tokens', () => {
    expect(lastTokenEndsText('united k ')).toBe(false);
    expect(lastTokenEndsText('united k.')).toBe(false);
    expect(lastTokenEndsText("côte d'")).toBe(false);
    expect(lastTokenEndsText('')).toBe(false);
    expect(lastTokenEndsText('!!!')).toBe(false);
  });

  it('agrees with the tokenizer (property)', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-zA-Z0-9 .,'_\-東か👍]{0,12}$/u), (text) => {
        const tokens = standardTokenize(text);
        const last = tokens[tokens.length - 1];
        expect(lastTokenEndsText(text)).toBe(last !== undefined && last.end === text.length);
      }),
    );
  });

  it('is true after an ideograph or an emoji, which are tokens', () => {
    expect(lastTokenEndsText('東京')).toBe(true);
    expect(lastTokenEndsText('ok 👍')).toBe(true);
  });
});
