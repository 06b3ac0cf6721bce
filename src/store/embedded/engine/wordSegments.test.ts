import fc from 'fast-check';
import { scanStandard, standardTokenize } from './analysis/standardTokenizer';
import { PIECE, pieceEnd, safeBreak } from './wordSegments';

/** What UAX #29 looks across: letters, digits, marks, joiners, quotes, mid punctuation, CJK, Hebrew, Katakana, emoji, keycaps, regional indicators, newlines. */
const ATOMS = ['a', 'Z', 'é', 'e\u0301', '7', '_', '.', ':', ',', ';', "'", '"', ' ', '  ', '\t', '\n', '\r', '\r\n', '-', '!', '?', '(', ')', '@', '#', '*', '/', '\u200b', '\u200d', '\u00ad', '\ufe0f', '\u20e3', '東', '京', 'カ', 'ナ', 'א', 'ב', '😀', '👍🏽', '🇫', '🇷', '\u3002', '\u3000', 'ก', 'ข', '\u0300', '%', '$'];

/** The tokenizer's tokens, the text cut into pieces at pieceEnd's places (or where a match ends). */
function inPieces(text: string, piece: number, maxScan: number): string[] {
  const out: string[] = [];
  const sink = (_type: number, start: number, end: number) => {
    out.push(`${start}:${text.slice(start, end)}`);
  };
  for (let from = 0; from < text.length; ) {
    const to = pieceEnd(text, from, piece, maxScan);
    from = to < 0 ? scanStandard(text, from, text.length, sink, from + piece) : scanStandard(text, from, to, sink);
  }
  return out;
}

const whole = (text: string) => standardTokenize(text).map((t) => `${t.start}:${t.text}`);

describe('pieces of a long text (wordSegments.ts)', () => {
  it('cuts only where words always break', () => {
    expect(safeBreak('a b', 2)).toBe(true);
    expect(safeBreak('a  b', 2)).toBe(false); // between two spaces
    expect(safeBreak('a\r\nb', 2)).toBe(false);
    expect(safeBreak('a!b', 2)).toBe(true);
    expect(safeBreak("a'b", 2)).toBe(false);
    expect(safeBreak('a \u0301', 2)).toBe(false); // a mark belongs to the space
    expect(safeBreak('#\ufe0f', 1)).toBe(false); // before a keycap's variation selector
    expect(safeBreak('ab', 1)).toBe(false);
  });

  it('gives the tokens of one scan over the whole text (property, small pieces, forced cuts too)', () => {
    const text = fc.array(fc.constantFrom(...ATOMS), { maxLength: 60 }).map((atoms) => atoms.join(''));
    fc.assert(
      fc.property(text, fc.integer({ min: 1, max: 12 }), fc.integer({ min: 0, max: 6 }), (t, piece, maxScan) => {
        expect(inPieces(t, piece, maxScan)).toEqual(whole(t));
      }),
      { numRuns: 3000 },
    );
  });

  it('cuts long ordinary text in pieces of about PIECE characters', () => {
    const text = "Don't stop: the U.S. café is 3.5 km away (e.g. near Zürich)! 東京都に行きます。 ".repeat(200);
    expect(inPieces(text, PIECE, 1024)).toEqual(whole(text));
    expect(pieceEnd(text, 0)).toBeGreaterThanOrEqual(PIECE);
    expect(pieceEnd(text, 0)).toBeLessThan(PIECE + 20);
  });

  it('answers -1 when no safe place is near, the text length for the last piece', () => {
    const cjk = '東京都に行きます'.repeat(400);
    expect(pieceEnd(cjk, 0, 64, 128)).toBe(-1);
    expect(pieceEnd(cjk, cjk.length - 100, 64, 128)).toBe(cjk.length);
    expect(inPieces(cjk, 64, 128)).toEqual(whole(cjk));
  });
});
