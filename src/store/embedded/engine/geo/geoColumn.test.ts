import { InvertedIndex } from '../invertedIndex';
import { IndexMapping } from '../mapping';
import { compileMatcher } from '../matcher';
import { SearchIndex } from '../searchIndex';
import { STRIPS, copyGeoPoints, declareGeoPoint, geoColumn, isGeoPoint, stripOf } from './geoColumn';
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

  it('give the points by strips of latitude, each ordered by longitude', () => {
    const mapping = new IndexMapping();
    const index = new InvertedIndex();
    for (const [id, where] of [['a', '10.05,3'], ['b', ['0,0', '10.06,-7']], ['c', '30,0'], ['d', '10.1,1']] as const) index.addSource(id, { where }, mapping);
    const column = geoColumn(index, 'where');
    const strips = column.strips();
    const strip = stripOf(encodeLatitude(10.05));
    expect(stripOf(encodeLatitude(10.1))).toBe(strip);
    const run = (r: number) => Array.from(strips.docs.subarray(strips.stripStarts[r], strips.stripStarts[r + 1]));
    expect(run(strip)).toEqual([1, 3, 0]); // longitudes -7, 1, 3
    expect(run(stripOf(encodeLatitude(0)))).toEqual([1]);
    expect(run(stripOf(encodeLatitude(30)))).toEqual([2]);
    expect(run(stripOf(encodeLatitude(45)))).toEqual([]);
    expect(strips.stripStarts[STRIPS]).toBe(5); // every point once
    expect(stripOf(encodeLatitude(-90))).toBe(0);
    expect(stripOf(encodeLatitude(90))).toBe(STRIPS - 1);
    // a new document: the strips are made again
    index.addSource('e', { where: '10.08,2' }, mapping);
    const again = geoColumn(index, 'where').strips();
    expect(Array.from(again.docs.subarray(again.stripStarts[strip], again.stripStarts[strip + 1]))).toEqual([1, 3, 4, 0]);
  });
});
