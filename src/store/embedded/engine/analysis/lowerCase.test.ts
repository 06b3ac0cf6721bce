import { lowerCase } from './lowerCase';

describe('lowerCase', () => {
  it('lower-cases ASCII and other scripts code point by code point', () => {
    expect(lowerCase('Hello WORLD')).toBe('hello world');
    expect(lowerCase('ÉCOLE Straße ΣΊΣΥΦΟΣ МОСКВА')).toBe('école straße σίσυφοσ москва');
    expect(lowerCase('𝐀𐐀')).toBe('𝐀𐐨');
  });

  it('maps U+0130 to i as Java does, and leaves what has no one-to-one mapping', () => {
    expect(lowerCase('İstanbul')).toBe('istanbul');
    expect(lowerCase('東京 👍')).toBe('東京 👍');
  });
});
