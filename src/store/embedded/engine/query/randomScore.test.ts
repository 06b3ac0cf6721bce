import { IndexMapping } from '../mapping';
import { DEFAULT_LIMITS } from '../limits';
import { InvertedIndex } from '../invertedIndex';
import { javaStringHash, mix32, murmurhash3, parseRandomScore, randomScore, readSeed } from './randomScore';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('random_score', () => {
  it('hashes as Lucene (StringHelper.murmurhash3_x86_32, figures from Lucene 8.7) and HPPC (BitMixer.mix32)', () => {
    expect(murmurhash3(bytes('hello'), 0)).toBe(613153351);
    expect(murmurhash3(bytes('France-é'), 12345)).toBe(-990340165);
    expect(murmurhash3(bytes('abc'), -7)).toBe(-410030904);
    expect(mix32(0)).toBe(0);
    expect(mix32(1)).toBe(mix32(1));
  });

  it('reads seeds as Elasticsearch: ints, longs folded (Long.hashCode), strings (String.hashCode)', () => {
    expect(readSeed(42, 'seed')).toBe(42);
    expect(readSeed(5000000000, 'seed')).toBe(705032705);
    expect(readSeed('seed', 'seed')).toBe(3526257);
    expect(javaStringHash('')).toBe(0);
    expect(() => readSeed(1.5, 'q.seed')).toThrow('"seed" at q.seed must be an integer or a string');
    expect(() => readSeed(true, 'q.seed')).toThrow('must be an integer or a string');
  });

  it('scores the lower 24 bits of the hash of the _id under the mixed seed', () => {
    const mapping = new IndexMapping();
    const index = new InvertedIndex();
    const doc = index.addSource('abc', { x: 1 }, mapping);
    const fn = randomScore(parseRandomScore({ seed: 7 }, 'q'), { mapping, now: 0, limits: DEFAULT_LIMITS }, 'q');
    expect(fn.bind(index)(doc, 0)).toBe((murmurhash3(bytes('abc'), mix32(7)) & 0xffffff) / 2 ** 24);
  });

  it('refuses unknown parameters and a field without seed', () => {
    expect(() => parseRandomScore({ seed: 1, salt: 2 }, 'q')).toThrow('unsupported parameter "salt"');
    expect(() => parseRandomScore({ field: '_id' }, 'q')).toThrow('"field" needs a "seed"');
  });
});
