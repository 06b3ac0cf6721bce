/**
 * `random_score` (Elasticsearch's RandomScoreFunction): a factor in [0, 1) from the lower 24 bits of a
 * hash. With a `seed`, the hash is Lucene's murmurhash3_x86_32 of the document's value of `field`
 * (UTF-8) under the mixed seed; the embedded engine uses `_id` when no field is given (Elasticsearch
 * 8 uses `_seq_no` and salts the seed with its index and shard, which no other index reproduces):
 * the same seed gives every document the same factor in every search. Without a seed, a seed drawn
 * per search and the document number (scores change from one search to the next, as Elasticsearch's).
 * A seed is an integer (a long is folded as Long.hashCode) or a string (Java's String.hashCode).
 */
import { murmurhash3x86_32 } from '../aggregations/murmur3';
import { hasOwn } from '../json';
import { InvertedIndex } from '../invertedIndex';
import { ScoreFunction } from '../lucene/query';
import { BuildContext } from './context';
import { at, checkParams, invalid, objectBody, readString } from './params';

/** HPPC's BitMixer.mix(int) (MurmurHash3's fmix32). */
export function mix32(k: number): number {
  k = Math.imul(k ^ (k >>> 16), 0x85ebca6b);
  k = Math.imul(k ^ (k >>> 13), 0xc2b2ae35);
  return (k ^ (k >>> 16)) | 0;
}

/** Lucene's StringHelper.murmurhash3_x86_32 of some bytes. */
export const murmurhash3 = murmurhash3x86_32;

/** Java's String.hashCode. */
export function javaStringHash(text: string): number {
  let h = 0;
  for (let i = 0; i < text.length; i++) h = (Math.imul(h, 31) + text.charCodeAt(i)) | 0;
  return h;
}

/** A seed as Elasticsearch reads it: an int, a long folded (Long.hashCode), or a string's hashCode. */
export function readSeed(value: unknown, where: string): number {
  if (typeof value === 'string') return javaStringHash(value);
  if (typeof value === 'number' && Number.isInteger(value)) {
    if (value >= -2147483648 && value <= 2147483647) return value;
    const big = BigInt.asIntN(64, BigInt(value));
    return Number(BigInt.asIntN(32, big ^ (big >> 32n)));
  }
  throw invalid(`[random_score] "seed" at ${where} must be an integer or a string, got ${JSON.stringify(value)}`);
}

export interface RandomScoreSpec {
  readonly seed: number | null;
  readonly field: string | null;
}

export function parseRandomScore(body: unknown, path: string): RandomScoreSpec {
  const obj = objectBody('random_score', body, path);
  checkParams('random_score', obj, ['seed', 'field'], path);
  const field = hasOwn(obj, 'field') ? readString('random_score', 'field', obj.field, at(path, 'field')) : null;
  if (field !== null && !hasOwn(obj, 'seed')) throw invalid(`[random_score] at ${path}: "field" needs a "seed"`);
  return { seed: hasOwn(obj, 'seed') ? readSeed(obj.seed, at(path, 'seed')) : null, field };
}

const encoder = new TextEncoder();

/** The factor of a hash: its lower 24 bits over 2^24. */
function factorOf(hash: number): number {
  return (hash & 0x00ffffff) / (1 << 24);
}

export function randomScore(spec: RandomScoreSpec, ctx: BuildContext, path: string): Omit<ScoreFunction, 'filter' | 'weight'> {
  const field = spec.field ?? '_id';
  if (spec.seed === null) {
    const salted = mix32((Math.random() * 2 ** 32) | 0);
    return { key: `random${salted}`, text: 'random score function (seed: none)', bind: () => (doc) => factorOf(mix32(doc ^ salted)) };
  }
  const type = field === '_id' ? 'keyword' : ctx.mapping.type(field);
  if (type !== undefined && type !== 'keyword' && type !== 'long') throw invalid(`[random_score] at ${path}: field [${field}] of type [${type}] cannot seed random scores (use _id, a keyword or a long field)`);
  const salted = mix32(spec.seed);
  return {
    key: `random${JSON.stringify([spec.seed, field])}`,
    text: `random score function (seed: ${spec.seed}, field: ${field})`,
    bind(index: InvertedIndex) {
      const fieldIndex = field === '_id' ? undefined : index.field(field);
      const valueOf = (doc: number): string | undefined => {
        if (field === '_id') return index.idOfDoc(doc);
        if (fieldIndex === undefined) return undefined;
        if (type === 'keyword') return fieldIndex.keywordValue(doc, false);
        const values = fieldIndex.values;
        return values !== null && values.count(doc) > 0 ? String(values.entries[values.from(doc)]) : undefined;
      };
      return (doc) => {
        const value = valueOf(doc);
        return factorOf(value === undefined ? salted : murmurhash3(encoder.encode(value), salted));
      };
    },
  };
}
