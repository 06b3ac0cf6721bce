import fc from 'fast-check';
import { compareUtf8 } from './strings';

const utf8 = (s: string) => Buffer.from(s, 'utf8');

describe('compareUtf8', () => {
  it('orders like UTF-8 bytes, unlike UTF-16 code units', () => {
    const astral = '\u{1F600}'; // encoded with surrogates D83D DE00
    const bmpHigh = '\uFF21'; // fullwidth A, above the surrogate range
    expect(astral < bmpHigh).toBe(true); // JavaScript's code unit order
    expect(compareUtf8(astral, bmpHigh)).toBeGreaterThan(0); // code point (UTF-8) order
    expect(compareUtf8('a', 'b')).toBeLessThan(0);
    expect(compareUtf8('ab', 'a')).toBeGreaterThan(0);
    expect(compareUtf8('same', 'same')).toBe(0);
  });

  it('agrees with Buffer.compare on valid strings', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme' }), (a, b) => {
        expect(Math.sign(compareUtf8(a, b))).toBe(Math.sign(Buffer.compare(utf8(a), utf8(b))));
      }),
    );
  });
});
