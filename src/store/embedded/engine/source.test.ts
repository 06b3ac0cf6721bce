import { InvalidQueryError } from '../../port';
import { filterSource, parseSourceFilter } from './source';

const doc = {
  name: 'France',
  code: 'FR',
  modifier: { id: 'u1', slug: 'bob', meta: { a: 1, b: 2 } },
  list: [{ x: 1, y: 2 }, { y: 3 }, 'scalar'],
  empty: {},
};
const filter = (spec: unknown) => filterSource(doc, parseSourceFilter(spec));

describe('_source filtering', () => {
  it('returns everything, or nothing', () => {
    expect(filter(undefined)).toEqual(doc);
    expect(filter(true)).toEqual(doc);
    expect(filter(false)).toEqual({});
    expect(filter(undefined)).not.toBe(doc);
  });

  it('includes paths with wildcards', () => {
    expect(filter('name')).toEqual({ name: 'France' });
    expect(filter(['name', 'modifier.id'])).toEqual({ name: 'France', modifier: { id: 'u1' } });
    expect(filter('modifier')).toEqual({ modifier: doc.modifier });
    expect(filter('mod*.s*')).toEqual({ modifier: { slug: 'bob' } });
    expect(filter('*.a')).toEqual({ modifier: { meta: { a: 1 } } });
    expect(filter('list.y')).toEqual({ list: [{ y: 2 }, { y: 3 }] });
    expect(filter('nothing')).toEqual({});
  });

  it('excludes paths', () => {
    expect(filter({ excludes: ['modifier', 'list'] })).toEqual({ name: 'France', code: 'FR', empty: {} });
    expect(filter({ includes: ['modifier'], excludes: ['modifier.meta.b'] })).toEqual({ modifier: { id: 'u1', slug: 'bob', meta: { a: 1 } } });
    expect(filter({ exclude: 'list.x' })).toMatchObject({ list: [{ y: 2 }, { y: 3 }, 'scalar'] });
    expect(filter({ includes: '*', excludes: '*e' })).toEqual({ modifier: doc.modifier, list: doc.list, empty: {} });
  });

  it('rejects malformed filters', () => {
    expect(() => parseSourceFilter(5)).toThrow(InvalidQueryError);
    expect(() => parseSourceFilter([1])).toThrow('_source pattern at _source[0] must be a string');
    expect(() => parseSourceFilter({ fields: ['a'] })).toThrow('unsupported _source parameter "fields"');
    expect(() => parseSourceFilter({ includes: 'a', include: 'b' })).toThrow(InvalidQueryError);
  });
});
