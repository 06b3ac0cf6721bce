/**
 * A reproducible, entity-like corpus: seeded PRNG, a vocabulary of 5,000 made-up words drawn with a
 * Zipf distribution (s = 1), names of 2-5 words and 20-word descriptions.
 */

/** mulberry32: a small, fast, seeded PRNG. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ONSETS = ['b', 'c', 'd', 'f', 'g', 'h', 'k', 'l', 'm', 'n', 'p', 'r', 's', 't', 'v', 'z', 'br', 'tr', 'st', 'ch'];
const VOWELS = ['a', 'e', 'i', 'o', 'u', 'ai', 'ou'];
const CODAS = ['', '', 'n', 'r', 's', 'l', 'x'];

export function vocabulary(size = 5000, seed = 7): string[] {
  const rand = prng(seed);
  const pick = <T>(list: T[]) => list[Math.floor(rand() * list.length)];
  const words = new Set<string>();
  while (words.size < size) {
    const syllables = 2 + Math.floor(rand() * 2);
    let w = '';
    for (let i = 0; i < syllables; i++) w += pick(ONSETS) + pick(VOWELS) + pick(CODAS);
    words.add(w);
  }
  return [...words];
}

/** Sampler of ranks 0..n-1 with P(rank k) proportional to 1/(k+1). */
export function zipf(n: number, rand: () => number): () => number {
  const cdf = new Float64Array(n);
  let sum = 0;
  for (let k = 0; k < n; k++) cdf[k] = sum += 1 / (k + 1);
  return () => {
    const x = rand() * sum;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

export interface CorpusDoc {
  _id: string;
  name: string;
  description: string;
  code: string;
  rank: number;
  category: string;
  /** A date (yyyy-MM-dd) over five years, from the document's number (no random draw: the other fields stay as they were). */
  published: string;
  allowTenantIds: string[];
}

const DAY_MS = 86_400_000;
const FIRST_DAY = Date.UTC(2020, 0, 1);

export const CATEGORIES = ['alpha', 'beta', 'gamma', 'delta', 'epsilon'];

export function* corpus(count: number, seed = 42): Generator<CorpusDoc> {
  const words = vocabulary();
  const rand = prng(seed);
  const word = zipf(words.length, rand);
  const phrase = (n: number) => Array.from({ length: n }, () => words[word()]).join(' ');
  for (let i = 0; i < count; i++) {
    yield {
      _id: `e${i}`,
      name: phrase(2 + Math.floor(rand() * 4)),
      description: phrase(20),
      code: `C${(i % 1000).toString().padStart(3, '0')}`,
      rank: Math.floor(rand() * 1000),
      category: CATEGORIES[Math.floor(rand() * CATEGORIES.length)],
      published: new Date(FIRST_DAY + ((i * 7919) % 1826) * DAY_MS).toISOString().slice(0, 10),
      allowTenantIds: ['*'],
    };
  }
}

/** Two-word queries drawn from the same distribution as the names. */
export function queries(count: number, seed = 99): string[] {
  const words = vocabulary();
  const rand = prng(seed);
  const word = zipf(words.length, rand);
  return Array.from({ length: count }, () => `${words[word()]} ${words[word()]}`);
}
