import { DEFAULT_LIMITS } from '../limits';
import { InvertedIndex } from '../invertedIndex';
import { IndexMapping } from '../mapping';
import { declareGeoPoint } from './geoColumn';
import { geoField, geoLeaf, queryPoint } from './geoLeaf';
import { encodeLatitude } from './geoPoint';

describe('geo query leaves', () => {
  it('read query points by validation method', () => {
    expect(queryPoint('q', '10,20', 'at', 'strict')).toEqual({ lat: 10, lon: 20 });
    expect(() => queryPoint('q', '100,20', 'at', 'strict')).toThrow('[q] at at: illegal latitude value [100]');
    expect(queryPoint('q', '10,200', 'at', 'coerce')).toEqual({ lat: 10, lon: -160 });
    expect(queryPoint('q', '100,20', 'at', 'ignore_malformed')).toEqual({ lat: 100, lon: 20 });
  });

  it('resolve declared geo_point fields only', () => {
    const mapping = new IndexMapping({ keyword: ['code'] });
    declareGeoPoint(mapping, 'where');
    const ctx = { mapping, now: 0, limits: DEFAULT_LIMITS };
    expect(geoField('q', 'where', ctx, false, 'at')).toBe('where');
    expect(() => geoField('q', 'code', ctx, true, 'at')).toThrow('field [code] is of type [keyword]');
    expect(geoField('q', 'nope', ctx, true, 'at')).toBeNull();
    expect(() => geoField('q', 'nope', ctx, false, 'at')).toThrow('failed to find geo_point field [nope]');
  });

  it('match the live documents with a point passing the test', () => {
    const mapping = new IndexMapping();
    const index = new InvertedIndex();
    index.addSource('a', { where: '10,0' }, mapping);
    index.addSource('b', { where: ['0,0', '20,0'] }, mapping);
    index.addSource('c', { where: '30,0' }, mapping);
    index.addSource('d', {}, mapping);
    index.remove('c');
    const leaf = geoLeaf('k', 'where', (lat) => lat >= encodeLatitude(10));
    expect(leaf.type === 'leaf' && Array.from(leaf.docs(index))).toEqual([0, 1]);
    expect(geoLeaf('k', null, () => true).type).toBe('matchNone');
  });
});
