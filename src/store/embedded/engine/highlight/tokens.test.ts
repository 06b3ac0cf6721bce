import fc from 'fast-check';
import { analyzeText } from '../analyzer';
import { fieldText, standardTokens, tokenList } from './tokens';

function tokensOf(value: string): [string, number, number][] {
  const out: [string, number, number][] = [];
  standardTokens(value, (term, start, end) => {
    out.push([term, start, end]);
    return true;
  });
  return out;
}

describe('the tokens of the highlighted text', () => {
  it('are the standard analyzer tokens, with their offsets', () => {
    expect(tokensOf('The Quick-brown fox, don\'t U.S.A café')).toEqual([
      ['the', 0, 3],
      ['quick', 4, 9],
      ['brown', 10, 15],
      ['fox', 16, 19],
      ["don't", 21, 26],
      ['u.s.a', 27, 32],
      ['café', 33, 37],
    ]);
  });

  it('are the tokens of Lucene for ideographs and emoji, offsets in UTF-16 units', () => {
    expect(tokensOf('東京 a👍🏽 🇫🇷!')).toEqual([
      ['東', 0, 1],
      ['京', 1, 2],
      ['a', 3, 4],
      ['👍🏽', 4, 8],
      ['🇫🇷', 9, 13],
    ]);
  });

  it('are the tokens the index holds, for any text (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', 'B', ' ', '.', "'", ',', 'é', '1', '_', '東', '\u0301', '-', 'ひ', 'カ', '👍', '🏽', '\u200d') }), (text) => {
        const tokens = tokensOf(text);
        expect(tokens.map(([t]) => t)).toEqual(analyzeText(text));
        for (const [term, start, end] of tokens) expect(text.slice(start, end).toLowerCase()).toBe(term);
      }),
    );
  });

  it('cut tokens longer than 255 characters into pieces with their own offsets', () => {
    const long = 'a'.repeat(300);
    expect(tokensOf(`é ${long}`).map(([t, s, e]) => [t.length, s, e])).toEqual([
      [1, 0, 1],
      [255, 2, 257],
      [45, 257, 302],
    ]);
  });

  it('join the values with U+0000, each value analyzed alone, 100 positions apart', () => {
    const field = fieldText(['Big fox', '', 'red fox'], 'standard');
    const { text } = field;
    const tokens = tokenList(field);
    expect(text).toBe('Big fox\u0000\u0000red fox');
    expect(tokens.map((t) => [t.term, t.position, t.start, t.end])).toEqual([
      ['big', 0, 0, 3],
      ['fox', 1, 4, 7],
      ['red', 202, 9, 12],
      ['fox', 203, 13, 16],
    ]);
  });

  it('make each keyword value one token', () => {
    expect(tokenList(fieldText(['New York', 'Paris'], 'keyword')).map((t) => [t.term, t.position, t.start, t.end])).toEqual([
      ['New York', 0, 0, 8],
      ['Paris', 1, 9, 14],
    ]);
  });

  it('stop at the first token of each value starting beyond max_analyzed_offset', () => {
    expect(tokenList(fieldText(['one two three', 'four five'], 'standard', 4)).map((t) => t.term)).toEqual(['one', 'two', 'four']);
  });
});
