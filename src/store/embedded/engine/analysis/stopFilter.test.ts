import { CJK_STOP_WORDS, ENGLISH_STOP_WORDS, stopFilter } from './stopFilter';
import { Token } from './tokens';

const tokens = (...terms: string[]): Token[] => terms.map((term, i) => ({ term, start: i, end: i + 1, positionIncrement: 1, type: 'word' }));

describe('StopFilter', () => {
  it('removes stop words and adds their positions to the next token kept', () => {
    const kept = stopFilter(tokens('the', 'cat', 'is', 'on', 'the', 'mat'), ENGLISH_STOP_WORDS);
    expect(kept.map((t) => [t.term, t.positionIncrement])).toEqual([
      ['cat', 2],
      ['mat', 4],
    ]);
  });

  it('has the two sets of Lucene (the CJK one with s, t and www, the English one with an)', () => {
    expect(ENGLISH_STOP_WORDS.size).toBe(33);
    expect(CJK_STOP_WORDS.size).toBe(35);
    expect(['an', 's', 'www'].map((w) => [ENGLISH_STOP_WORDS.has(w), CJK_STOP_WORDS.has(w)])).toEqual([
      [true, false],
      [false, true],
      [false, true],
    ]);
  });
});
