import { parseIncludeExclude } from './includeExclude';

describe('include/exclude', () => {
  it('keeps terms a regex (anchored, Lucene syntax) includes and the other does not exclude', () => {
    const f = parseIncludeExclude({ include: 'a.*', exclude: 'ab.*' }, 'x');
    expect(['a', 'abc', 'ba', 'ax'].filter((t) => f?.acceptString(t))).toEqual(['a', 'ax']);
    expect(f?.regex).toBe(true);
  });

  it('keeps terms of a list, numbers compared as numbers', () => {
    const f = parseIncludeExclude({ include: [1, '2.5', 'x'] }, 'x');
    expect([1, 2, 2.5].filter((v) => f?.acceptNumber(v, String(v)))).toEqual([1, 2.5]);
    expect(parseIncludeExclude({}, 'x')).toBeNull();
  });

  it('splits terms into partitions that cover every term once', () => {
    const terms = Array.from({ length: 50 }, (_, i) => `t${i}`);
    const parts = [0, 1, 2, 3].map((p) => terms.filter((t) => parseIncludeExclude({ include: { partition: p, num_partitions: 4 } }, 'x')?.acceptString(t)));
    expect(parts.flat().sort()).toEqual([...terms].sort());
    expect(parts.every((p) => p.length > 0)).toBe(true);
  });

  it.each([
    [{ include: { partition: 4, num_partitions: 4 } }, /Partition must be >=0 and < numPartition/],
    [{ include: { partition: 0 } }, /Missing \[num_partitions\]/],
    [{ include: { partition: 0, num_partitions: 2 }, exclude: ['a'] }, /Cannot specify any excludes/],
    [{ include: '[' }, /invalid regular expression/],
    [{ exclude: { partition: 0, num_partitions: 2 } }, /exclude at/],
    [{ include: [{}] }, /must be a string, a number or a boolean/],
  ])('refuses %j', (body, message) => expect(() => parseIncludeExclude(body, 'x')).toThrow(message));
});
