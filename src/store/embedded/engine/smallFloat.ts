/**
 * Lucene's SmallFloat one-byte encoding of field lengths (org.apache.lucene.util.SmallFloat,
 * Lucene 8 and 9): lengths below 24 are stored as is, larger ones as a 4-bit-mantissa float-like
 * value after subtracting 24. Every length below 41 round-trips exactly (40 does, 41 decodes to 40);
 * above, the decoded length is the largest representable value not above the real one.
 */

/** Float-like encoding of a non-negative integer (at most 2^31 - 1) with 4 significant bits. */
export function longToInt4(i: number): number {
  if (!Number.isInteger(i) || i < 0 || i > 0x7fffffff) throw new RangeError(`longToInt4: ${i} is out of range`);
  const numBits = 32 - Math.clz32(i);
  if (numBits < 4) return i; // subnormal value
  const shift = numBits - 4;
  // keep the 4 most significant bits, drop the implicit leading one, store the shift above them
  return ((i >>> shift) & 0x07) | ((shift + 1) << 3);
}

export function int4ToLong(i: number): number {
  const bits = i & 0x07;
  const shift = (i >>> 3) - 1;
  return shift === -1 ? bits : (bits | 0x08) * 2 ** shift;
}

const MAX_INT4 = longToInt4(0x7fffffff); // 231
const NUM_FREE_VALUES = 255 - MAX_INT4; // 24

/** Encode a field length (number of tokens) into one unsigned byte, 0..255. */
export function intToByte4(i: number): number {
  if (!Number.isInteger(i) || i < 0) throw new RangeError(`intToByte4: ${i} is not a non-negative integer`);
  if (i < NUM_FREE_VALUES) return i;
  return NUM_FREE_VALUES + longToInt4(Math.min(i, 0x7fffffff) - NUM_FREE_VALUES);
}

/** Decode an unsigned byte (0..255) back into a (possibly approximate) field length. */
export function byte4ToInt(b: number): number {
  const i = b & 0xff;
  if (i < NUM_FREE_VALUES) return i;
  return Math.min(NUM_FREE_VALUES + int4ToLong(i - NUM_FREE_VALUES), 0x7fffffff);
}
