import { floorMod, mix64, murmurhash3x86_32 } from './murmur3';

const utf8 = (s: string) => new Uint8Array(Buffer.from(s, 'utf8'));

describe('murmurhash3x86_32', () => {
  // reference values of MurmurHash3_x86_32 (Appleby's SMHasher), as signed ints
  it.each([
    ['', 0, 0],
    ['', 1, 0x514e28b7],
    ['a', 0x9747b28c, 0x7fa09ea6],
    ['abc', 0, -1277324294], // 0xb3dd93fa
    ['Hello, world!', 0x9747b28c, 0x24884cba],
    ['The quick brown fox jumps over the lazy dog', 0x9747b28c, 0x2fa826cd],
  ])('hash of %p with seed %d', (text, seed, expected) => expect(murmurhash3x86_32(utf8(text), seed)).toBe(expected | 0));
});

describe('mix64 and floorMod', () => {
  it('mixes as HPPC (0 stays 0) and partitions never go negative', () => {
    expect(mix64(0n)).toBe(0n);
    expect(mix64(1n)).not.toBe(1n);
    for (const v of [-5n, 1n, 42n, 1704067200000n]) {
      const p = floorMod(mix64(v), 7);
      expect(p).toBeGreaterThanOrEqual(0);
      expect(p).toBeLessThan(7);
    }
    expect(floorMod(-3, 5)).toBe(2);
  });
});
