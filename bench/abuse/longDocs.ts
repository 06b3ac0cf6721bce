/**
 * bench:abuse's long entities, for the abuse of highlighting them: LONG_DOCS books whose descriptions
 * are LONG_CHARS characters of sentences of the bench vocabulary (the most frequent words often), in
 * a collection of their own so that the other abusive requests and the measuring client's searches
 * (on `things`) find, sort and answer what they did without them.
 *
 * Plain ASCII words, spaces, commas and periods: text that the engine analyzes on its ASCII fast path
 * both before and after highlighting worked in slices, so that a run of the former gateway loads it
 * in seconds (its segmenter took quadratic time on a long text with an apostrophe or an accent: one
 * such description would have taken minutes to index and to highlight).
 */
import { prng, vocabulary, zipf } from '../lib/corpus';

export const LONG_DOCS = 4;
export const LONG_CHARS = 500_000;
export const LONG_PLURAL = 'books';

/** The description of long entity `i`: sentences of 8 to 20 words, a comma now and then. */
export function longDescription(i: number, length = LONG_CHARS): string {
  const words = vocabulary();
  const rand = prng(1000 + i);
  const word = zipf(words.length, rand);
  const parts: string[] = [];
  let size = 0;
  while (size < length) {
    const n = 8 + Math.floor(rand() * 13);
    let sentence = words[word()];
    sentence = sentence[0].toUpperCase() + sentence.slice(1);
    for (let k = 1; k < n; k++) sentence += (rand() < 0.1 ? ', ' : ' ') + words[word()];
    sentence += '. ';
    parts.push(sentence);
    size += sentence.length;
  }
  return parts.join('').slice(0, length);
}

/** Two of the most frequent words of the vocabulary: matched many times in every long description. */
export function frequentWords(): string {
  const words = vocabulary();
  return `${words[0]} ${words[1]}`;
}
