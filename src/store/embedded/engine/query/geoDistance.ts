/**
 * `geo_distance` (Elasticsearch's GeoDistanceQueryBuilder, Lucene's LatLonPoint.newDistanceQuery):
 * the documents with a point of a geo_point field within `distance` of a point, `{"geo_distance":
 * {"distance": "12km", "location": {"lat": 40.7, "lon": -74.0}}}`. A point matches when the
 * haversine sort key from the centre to its quantized position is at most the key of the radius
 * (SloppyMath, GeoUtils.distanceQuerySortKey), as Lucene tests it. `distance` is a number of metres
 * or a string with a unit (`unit` gives the unit of a bare number); `distance_type` (`arc`,
 * `plane`) is read and, as in Elasticsearch 8, does not change what matches; `validation_method`
 * `strict` (default), `coerce` or `ignore_malformed`; `ignore_unmapped`. Scores the boost.
 */
import { hasOwn } from '../json';
import { withBoost } from '../lucene/query';
import { decodeLatitude, decodeLongitude, encodeLatitude, encodeLongitude, encodeLongitudeCeil, parseDistance, unitMetres } from '../geo/geoPoint';
import { EARTH_MEAN_RADIUS, distanceQuerySortKey, haversinSortKeyTo } from '../geo/sloppyMath';
import { StripLongitudes, geoField, geoLeaf, queryPoint, readValidation } from '../geo/geoLeaf';
import { ClauseParser } from './context';
import { at, boostOf, invalid, objectBody, readBoolean, readEnum, readName, readString } from './params';

const PARAMS = ['distance', 'distance_type', 'unit', 'validation_method', 'ignore_unmapped', '_name', 'boost'];

/**
 * The encoded latitudes a circle can reach (conservative: its angular radius plus a margin far above
 * the haversine approximation's error), so that only that band of points is tested.
 */
function latitudeBand(lat: number, metres: number): readonly [number, number] | undefined {
  const degrees = (metres / EARTH_MEAN_RADIUS) * (180 / Math.PI) * 1.01 + 0.001;
  const min = lat - degrees;
  const max = lat + degrees;
  if (min <= -90 || max >= 90) return undefined;
  return [encodeLatitude(min), encodeLatitude(max) + 1];
}

/**
 * The encoded longitudes a circle can reach, conservatively (Rectangle.fromPointDistance's
 * asin(sin(d) / cos(lat)) at the band's latitude farthest from the equator, plus a margin), or
 * undefined when it may cross the dateline or reach a pole (then every longitude is tested).
 */
function longitudeBounds(lat: number, lon: number, metres: number): readonly [number, number] | undefined {
  const angle = metres / EARTH_MEAN_RADIUS;
  const farthest = ((Math.abs(lat) + angle * (180 / Math.PI) * 1.01 + 0.001) * Math.PI) / 180;
  const ratio = Math.sin(angle) / Math.cos(farthest);
  if (!(ratio < 0.99)) return undefined;
  const degrees = Math.asin(ratio) * (180 / Math.PI) * 1.01 + 0.001;
  if (lon - degrees <= -180 || lon + degrees >= 180) return undefined;
  return [encodeLongitude(lon - degrees), encodeLongitude(lon + degrees) + 1];
}

/**
 * For the points of the latitudes [minLat, maxLat] (a strip): the longitudes (encoded, inclusive)
 * within which every one lies inside the circle by a margin (0.1% of its radius, far above
 * SloppyMath's error), which match without their haversine being computed (as a BKD cell within
 * the shape matches whole), and those outside of which none can be inside (the radius 0.1% larger),
 * which are not looked at; null for either when it cannot be told. Along a meridian the distance to
 * the centre is largest at an end of the latitudes, and along a parallel it grows with the
 * longitude's difference: the corners decide the inner longitudes; the circle is widest at the
 * latitude asin(sin(lat) / cos(radius)), a little poleward of its centre: a strip away from it is
 * widest at its end nearest it.
 */
function stripLongitudes(lat: number, lon: number, metres: number): StripLongitudes {
  const phi0 = (lat * Math.PI) / 180;
  const angle = metres / EARTH_MEAN_RADIUS;
  const halfWidth = (cosRadius: number, latitude: number): number => {
    const phi = (latitude * Math.PI) / 180;
    const c = (cosRadius - Math.sin(phi) * Math.sin(phi0)) / (Math.cos(phi) * Math.cos(phi0));
    return c > 1 || Number.isNaN(c) ? -1 : (Math.acos(Math.max(c, -1)) * 180) / Math.PI;
  };
  const cosInner = Math.cos(angle * 0.999);
  const cosOuter = Math.cos(angle * 1.001);
  const widest = (Math.asin(Math.min(1, Math.max(-1, Math.sin(phi0) / Math.cos(angle * 1.001)))) * 180) / Math.PI;
  const encoded = (width: number, floorFirst: boolean): readonly [number, number] | null =>
    lon - width <= -180 || lon + width >= 180 ? null : floorFirst ? [encodeLongitude(lon - width), encodeLongitudeCeil(lon + width)] : [encodeLongitudeCeil(lon - width), encodeLongitude(lon + width)];
  return (minLat, maxLat) => {
    const innerWidth = Math.min(halfWidth(cosInner, minLat), halfWidth(cosInner, maxLat)) * 0.999;
    const inner = innerWidth > 0 ? encoded(innerWidth, false) : null;
    // the strip holds the circle's centre or its widest latitude (or lies between them): no narrowing
    const low = Math.min(lat, widest);
    const high = Math.max(lat, widest);
    let outer: readonly [number, number] | null = null;
    if (maxLat < low || minLat > high) {
      const nearest = maxLat < low ? maxLat : minLat;
      const width = halfWidth(cosOuter, nearest);
      if (width >= 0) outer = encoded(width * 1.001 + 1e-9, true);
    }
    return { inner, outer };
  };
}

export const parseGeoDistance: ClauseParser = (body, path) => {
  const obj = objectBody('geo_distance', body, path);
  const fields = Object.keys(obj).filter((k) => !PARAMS.includes(k));
  if (fields.length !== 1) throw invalid(`[geo_distance] at ${path} takes one geo_point field besides its parameters (${PARAMS.join(', ')}), got ${fields.length}`);
  const field = fields[0];
  if (!hasOwn(obj, 'distance')) throw invalid(`[geo_distance] at ${path} requires a "distance"`);
  const validation = hasOwn(obj, 'validation_method') ? readValidation('geo_distance', obj.validation_method, at(path, 'validation_method')) : 'strict';
  if (hasOwn(obj, 'distance_type')) readEnum('geo_distance', 'distance_type', obj.distance_type, ['arc', 'plane'], at(path, 'distance_type'));
  let unit = 1;
  if (hasOwn(obj, 'unit')) {
    const name = readString('geo_distance', 'unit', obj.unit, at(path, 'unit'));
    const metres = unitMetres(name);
    if (metres === null) throw invalid(`[geo_distance] at ${at(path, 'unit')}: no distance unit named [${name}]`);
    unit = metres;
  }
  const distance = parseDistance(obj.distance, unit);
  if (distance === null) throw invalid(`[geo_distance] at ${at(path, 'distance')}: cannot parse distance ${JSON.stringify(obj.distance)}`);
  if (!(distance > 0)) throw invalid(`[geo_distance] at ${at(path, 'distance')}: distance must be greater than zero`);
  const center = queryPoint('geo_distance', obj[field], at(path, field), validation);
  const ignoreUnmapped = hasOwn(obj, 'ignore_unmapped') ? readBoolean('geo_distance', 'ignore_unmapped', obj.ignore_unmapped, at(path, 'ignore_unmapped')) : false;
  const boost = boostOf('geo_distance', obj, path);
  readName('geo_distance', obj, path);
  const sortKey = distanceQuerySortKey(distance);
  return {
    toLucene: (ctx) => {
      const resolved = geoField('geo_distance', field, ctx, ignoreUnmapped, path);
      const { lat, lon } = center;
      const key = `geo_distance:${JSON.stringify([field, lat, lon, sortKey])}`;
      const band = latitudeBand(lat, distance);
      const lons = band === undefined ? undefined : longitudeBounds(lat, lon, distance);
      // (only the points within the band and the longitudes are read: geoLeaf's strips)
      const keyTo = haversinSortKeyTo(lat, lon);
      const test = (encLat: number, encLon: number) => keyTo(decodeLatitude(encLat), decodeLongitude(encLon)) <= sortKey;
      const leaf = geoLeaf(key, resolved, test, band, lons, lons === undefined ? undefined : stripLongitudes(lat, lon, distance));
      return withBoost(leaf, boost);
    },
  };
};
