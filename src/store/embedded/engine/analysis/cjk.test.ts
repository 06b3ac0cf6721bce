import { cjkBigrams, cjkWidth } from './cjk';
import { Token } from './tokens';

const token = (term: string, start: number, type: string): Token => ({ term, start, end: start + term.length, positionIncrement: 1, type });
const terms = (tokens: Token[]) => tokens.map((t) => `${t.term}/${t.type}/${t.start}-${t.end}`);

describe('CJKWidthFilter', () => {
  it('folds full-width ASCII and half-width katakana, combining sound marks', () => {
    expect(cjkWidth('ＡＢＣ１２３')).toBe('ABC123');
    expect(cjkWidth('ｶﾀｶﾅ')).toBe('カタカナ');
    expect(cjkWidth('ｶﾞｷﾞﾊﾟ')).toBe('ガギパ');
    expect(cjkWidth('ｱﾞ')).toBe('ア\u3099'); // no voiced form: the combining mark
    expect(cjkWidth('plain')).toBe('plain');
  });
});

describe('CJKBigramFilter', () => {
  it('makes overlapping bigrams of adjacent CJK characters, unigrams of lone ones', () => {
    const tokens = [token('東', 0, '<IDEOGRAPHIC>'), token('京', 1, '<IDEOGRAPHIC>'), token('都', 2, '<IDEOGRAPHIC>'), token('abc', 4, '<ALPHANUM>'), token('日', 8, '<IDEOGRAPHIC>')];
    expect(terms(cjkBigrams(tokens))).toEqual(['東京/<DOUBLE>/0-2', '京都/<DOUBLE>/1-3', 'abc/<ALPHANUM>/4-7', '日/<SINGLE>/8-9']);
  });

  it('bigrams across CJK scripts when the tokens touch, not across a gap', () => {
    const tokens = [token('カタ', 0, '<KATAKANA>'), token('ひ', 2, '<HIRAGANA>'), token('한', 4, '<HANGUL>')];
    expect(terms(cjkBigrams(tokens))).toEqual(['カタ/<DOUBLE>/0-2', 'タひ/<DOUBLE>/1-3', '한/<SINGLE>/4-5']);
  });

  it('passes other tokens through and ends with nothing buffered', () => {
    expect(terms(cjkBigrams([token('x', 0, '<ALPHANUM>')]))).toEqual(['x/<ALPHANUM>/0-1']);
    expect(cjkBigrams([])).toEqual([]);
  });
});
