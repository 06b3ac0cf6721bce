/**
 * The two hashes Elasticsearch's terms `include` partitions use (IncludeExclude.Partitioned*Filter):
 * Lucene's StringHelper.murmurhash3_x86_32 over a term's UTF-8 bytes (seed 31) for strings, and
 * HPPC's BitMixer.mix64 for numbers. Written here because the partition a term falls in must be
 * bit-for-bit Elasticsearch's (npm's murmurhash packages hash UTF-16 or ASCII strings, not bytes).
 */

/** MurmurHash3 x86 32-bit of bytes (Lucene's StringHelper.murmurhash3_x86_32), as a signed int. */
export function murmurhash3x86_32(bytes: Uint8Array, seed: number): number {
  const c1 = 0xcc9e2d51;
  const c2 = 0x1b873593;
  let h1 = seed | 0;
  const len = bytes.length;
  const roundedEnd = len & ~3;
  for (let i = 0; i < roundedEnd; i += 4) {
    let k1 = bytes[i] | (bytes[i + 1] << 8) | (bytes[i + 2] << 16) | (bytes[i + 3] << 24);
    k1 = Math.imul(k1, c1);
    k1 = (k1 << 15) | (k1 >>> 17);
    k1 = Math.imul(k1, c2);
    h1 ^= k1;
    h1 = (h1 << 13) | (h1 >>> 19);
    h1 = (Math.imul(h1, 5) + 0xe6546b64) | 0;
  }
  const tail = len & 3;
  if (tail > 0) {
    let k1 = 0;
    if (tail === 3) k1 = (bytes[roundedEnd + 2] & 0xff) << 16;
    if (tail >= 2) k1 |= (bytes[roundedEnd + 1] & 0xff) << 8;
    k1 |= bytes[roundedEnd] & 0xff;
    k1 = Math.imul(k1, c1);
    k1 = (k1 << 15) | (k1 >>> 17);
    k1 = Math.imul(k1, c2);
    h1 ^= k1;
  }
  h1 ^= len;
  h1 ^= h1 >>> 16;
  h1 = Math.imul(h1, 0x85ebca6b);
  h1 ^= h1 >>> 13;
  h1 = Math.imul(h1, 0xc2b2ae35);
  h1 ^= h1 >>> 16;
  return h1 | 0;
}

const MASK = (1n << 64n) - 1n;

/** HPPC's BitMixer.mix64 of a long, as a signed 64-bit BigInt. */
export function mix64(value: bigint): bigint {
  let z = BigInt.asUintN(64, value);
  z = ((z ^ (z >> 32n)) * 0x4cd6944c5cc20b6dn) & MASK;
  z = ((z ^ (z >> 29n)) * 0xfc12c5b19d3259e9n) & MASK;
  return BigInt.asIntN(64, z ^ (z >> 32n));
}

/** Java's Math.floorMod. */
export function floorMod(x: number | bigint, m: number): number {
  if (typeof x === 'bigint') {
    const r = x % BigInt(m);
    return Number(r < 0n ? r + BigInt(m) : r);
  }
  return ((x % m) + m) % m;
}
