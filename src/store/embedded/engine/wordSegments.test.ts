import fc from 'fast-check';
import { PIECE, pieceEnd, safeBreak, segmentPiece, wordSegmenter } from './wordSegments';

type Found = [string, number][];

function whole(text: string): Found {
  const out: Found = [];
  for (const { segment, index, isWordLike } of wordSegmenter.segment(text)) if (isWordLike) out.push([segment, index]);
  return out;
}

function inPieces(text: string, piece: number, maxScan: number): Found {
  const out: Found = [];
  for (let from = 0; from < text.length; ) from = segmentPiece(text, from, (segment, index) => out.push([segment, index]), piece, maxScan);
  return out;
}

/** What UAX #29 looks across: letters, digits, marks, joiners, quotes, mid punctuation, CJK, Hebrew, Katakana, emoji, regional indicators, newlines. */
const ATOMS = ['a', 'Z', 'é', 'e\u0301', '7', '_', '.', ':', ',', ';', "'", '"', ' ', '  ', '\t', '\n', '\r', '\r\n', '-', '!', '?', '(', ')', '@', '#', '/', '\u200b', '\u200d', '\u00ad', '東', '京', '都', 'カ', 'ナ', 'א', 'ב', '😀', '👍🏽', '🇫', '🇷', '\u3002', '\u3000', 'ก', 'ข', '\u0300', '%', '$'];

describe('word segments a piece at a time', () => {
  it('cuts only where words always break', () => {
    expect(safeBreak('a b', 2)).toBe(true);
    expect(safeBreak('a  b', 2)).toBe(false); // between two spaces
    expect(safeBreak('a\r\nb', 2)).toBe(false);
    expect(safeBreak('a!b', 2)).toBe(true);
    expect(safeBreak("a'b", 2)).toBe(false);
    expect(safeBreak('a \u0301', 2)).toBe(false); // a mark belongs to the space
    expect(safeBreak('ab', 1)).toBe(false);
  });

  it('finds the same word segments as one pass over the whole text', () => {
    const text = fc.array(fc.constantFrom(...ATOMS), { maxLength: 60 }).map((atoms) => atoms.join(''));
    fc.assert(
      fc.property(text, fc.integer({ min: 1, max: 12 }), (t, piece) => {
        // no forced cut: a safe place is looked for up to the end
        expect(inPieces(t, piece, t.length + 1)).toEqual(whole(t));
      }),
      { numRuns: 3000 },
    );
  });

  it('agrees on long ordinary text, in pieces of about PIECE characters', () => {
    const text = "Don't stop: the U.S. café is 3.5 km away (e.g. near Zürich)! 東京都に行きます。 ".repeat(200);
    expect(inPieces(text, PIECE, 1024)).toEqual(whole(text));
    expect(pieceEnd(text, 0)).toBeGreaterThanOrEqual(PIECE);
    expect(pieceEnd(text, 0)).toBeLessThan(PIECE + 20);
  });

  it('cuts a text without a safe place at a segment start, each piece within the window', () => {
    const cjk = '東京都に行きます'.repeat(400);
    let from = 0;
    const found: Found = [];
    while (from < cjk.length) {
      const to = segmentPiece(cjk, from, (segment, index) => found.push([segment, index]), 64, 128);
      expect(to).toBeGreaterThan(from);
      expect(to - from).toBeLessThanOrEqual(64 + 128);
      from = to;
    }
    // every segment inside the text, in order, without overlap
    for (let i = 1; i < found.length; i++) expect(found[i][1]).toBeGreaterThanOrEqual(found[i - 1][1] + found[i - 1][0].length);
    expect(found.map(([s]) => s).join('')).toBe(cjk);
    // one word longer than the window: cut at the window's end, never inside a surrogate pair
    const emoji = '😀'.repeat(100);
    expect(pieceEnd('a'.repeat(300), 0, 10, 20)).toBe(30);
    expect(pieceEnd(`x${emoji}`, 0, 10, 20) % 2).toBe(1);
  });
});
