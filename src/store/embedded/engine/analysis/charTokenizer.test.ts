import { isLetter, isWhitespace, scanChars } from './charTokenizer';

const tokens = (text: string, accept: (cp: number) => boolean) => {
  const out: string[] = [];
  scanChars(text, accept, (start, end) => {
    out.push(text.slice(start, end));
  });
  return out;
};

describe('charTokenizer', () => {
  it('letter runs (LetterTokenizer): digits, apostrophes and emoji break words', () => {
    expect(tokens("Don't stop 4ever café_東京 👍", isLetter)).toEqual(['Don', 't', 'stop', 'ever', 'café', '東京']);
  });

  it('whitespace runs (WhitespaceTokenizer): a no-break space does not break', () => {
    expect(tokens(' a,b\tc\u00A0d\u2003e\n', (cp) => !isWhitespace(cp))).toEqual(['a,b', 'c\u00A0d', 'e']);
  });

  it('cuts runs at 255 chars, a supplementary character taking one to 256', () => {
    expect(tokens('a'.repeat(600), isLetter).map((t) => t.length)).toEqual([255, 255, 90]);
    expect(tokens('a'.repeat(254) + '𝐀b', isLetter).map((t) => t.length)).toEqual([256, 1]);
  });

  it('stops when the sink says so', () => {
    const seen: number[] = [];
    scanChars('a b c', isLetter, (start) => {
      seen.push(start);
      return seen.length < 2;
    });
    expect(seen).toEqual([0, 2]);
  });
});
