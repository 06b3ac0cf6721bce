import { InvertedIndex } from '../invertedIndex';
import { IndexMapping } from '../mapping';
import { compileMatcher } from '../matcher';
import { SearchIndex } from '../searchIndex';
import { copyGeoPoints, declareGeoPoint, geoColumn, isGeoPoint } from './geoColumn';
import { encodeLatitude, encodeLongitude } from './geoPoint';

describe('geo_point columns', () => {
  it('are declared per mapping, never detected', () => {
    const mapping = new IndexMapping();
    expect(isGeoPoint(mapping, 'location')).toBe(false);
    declareGeoPoint(mapping, 'location');
    expect(isGeoPoint(mapping, 'location')).toBe(true);
    expect(isGeoPoint(new IndexMapping(), 'location')).toBe(false);
  });

  it('read the points of each document from its source, as documents arrive and go', () => {
    const mapping = new IndexMapping();
    const index = new InvertedIndex();
    const a = index.addSource('a', { place: { location: '10,20' } }, mapping);
    const b = index.addSource('b', { 'place.location': [{ lat: 1, lon: 2 }, [4, 3], 'bad', { lat: 95, lon: 0 }] }, mapping);
    const c = index.addSource('c', { other: 1 }, mapping);
    let column = geoColumn(index, 'place.location');
    expect([column.count(a), column.count(b), column.count(c)]).toEqual([1, 2, 0]);
    expect([column.lats[column.starts[b] + 1], column.lons[column.starts[b] + 1]]).toEqual([encodeLatitude(3), encodeLongitude(4)]);
    index.remove('a');
    const d = index.addSource('d', { place: [{ location: '5,6' }, { location: '7,8' }] }, mapping);
    column = geoColumn(index, 'place.location');
    expect(column.count(d)).toBe(2);
    expect(column.builtTo).toBe(index.maxDoc);
  });

  it('survive a mapping copy: single-document matchers (live subscriptions) see geo_point fields', () => {
    const from = new IndexMapping();
    declareGeoPoint(from, 'location');
    const to = new IndexMapping();
    copyGeoPoints(from, to);
    expect(isGeoPoint(to, 'location')).toBe(true);
    const index = new SearchIndex();
    index.declareMapping({ dynamic: 'true', properties: { location: { type: 'geo_point' } } });
    const near = compileMatcher({ geo_distance: { distance: '10km', location: '48.85,2.35' } }, () => index.mappingCopy());
    expect(near({ location: '48.86,2.34' })).toBe(true);
    expect(near({ location: '45.76,4.83' })).toBe(false);
    expect(near({})).toBe(false);
  });

  it('give the points of a band of latitudes', () => {
    const mapping = new IndexMapping();
    const index = new InvertedIndex();
    for (const [id, where] of [['a', '10,0'], ['b', ['0,0', '20,0']], ['c', '30,0'], ['d', '15,5']] as const) index.addSource(id, { where }, mapping);
    const column = geoColumn(index, 'where');
    const band = column.byLatitude(encodeLatitude(10), encodeLatitude(20));
    const docs = Array.from(band.order.subarray(band.from, band.to)).map((i) => band.docs[i]);
    expect(docs).toEqual([0, 3, 1]); // latitudes 10, 15, 20
    const none = column.byLatitude(encodeLatitude(40), encodeLatitude(50));
    expect(none.to - none.from).toBe(0);
  });
});
