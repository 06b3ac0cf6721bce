import { GeoPointError, checkPoint, encodeLatitude, encodeLatitudeCeil, encodeLongitude, normalizePoint, parseDistance, parseGeoPoint, unitMetres } from './geoPoint';

describe('geo points', () => {
  it('reads every form Elasticsearch accepts', () => {
    const p = { lat: 41.5, lon: -71.25 };
    expect(parseGeoPoint({ lat: 41.5, lon: -71.25 })).toEqual(p);
    expect(parseGeoPoint({ lat: '41.5', lon: '-71.25' })).toEqual(p);
    expect(parseGeoPoint('41.5, -71.25')).toEqual(p);
    expect(parseGeoPoint([-71.25, 41.5])).toEqual(p);
    expect(parseGeoPoint([-71.25, 41.5, 10])).toEqual(p);
    expect(parseGeoPoint('POINT (-71.25 41.5)')).toEqual(p);
    expect(parseGeoPoint({ type: 'Point', coordinates: [-71.25, 41.5] })).toEqual(p);
  });

  it('refuses what is no point, and checks ranges', () => {
    for (const bad of ['drm3btev3e86', [1], { lat: 1 }, { lat: 1, lon: 2, z: 3 }, true, { type: 'LineString', coordinates: [] }, 'a,b']) expect(() => parseGeoPoint(bad)).toThrow(GeoPointError);
    expect(() => checkPoint({ lat: -90.5, lon: 0 })).toThrow('illegal latitude value [-90.5]');
    expect(() => checkPoint({ lat: 0, lon: 181 })).toThrow('illegal longitude value [181]');
    expect(normalizePoint({ lat: 10, lon: 190 })).toEqual({ lat: 10, lon: -170 });
    expect(normalizePoint({ lat: 100, lon: 0 })).toEqual({ lat: 80, lon: 180 });
  });

  it('encodes as GeoEncodingUtils (32-bit, floor; ceil for lower bounds; the maximum kept in range)', () => {
    expect(encodeLatitude(0)).toBe(0);
    expect(encodeLatitude(90)).toBe(2147483647);
    expect(encodeLatitude(-90)).toBe(-2147483648);
    expect(encodeLongitude(180)).toBe(2147483647);
    expect(encodeLongitude(-180)).toBe(-2147483648);
    expect(encodeLatitudeCeil(1e-9) - encodeLatitude(1e-9)).toBe(1);
  });

  it('reads distances as DistanceUnit', () => {
    expect(['12km', '1mi', '3ft', '2in', '1yd', '5NM', '5nmi', '10cm', '10mm', '7m', '7', '1.5km'].map((d) => parseDistance(d))).toEqual([12000, 1609.344, 0.3048 * 3, 0.0254 * 2, 0.9144, 9260, 9260, 0.1, 0.01, 7, 7, 1500]);
    expect(parseDistance(3, 1000)).toBe(3000);
    expect(parseDistance('far')).toBeNull();
    expect(unitMetres('kilometers')).toBe(1000);
    expect(unitMetres('parsec')).toBeNull();
  });
});
