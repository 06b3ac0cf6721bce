/**
 * `geo_bounding_box` (Elasticsearch's GeoBoundingBoxQueryBuilder, Lucene's LatLonPoint.newBoxQuery):
 * the documents with a point of a geo_point field inside a box, `{"geo_bounding_box": {"location":
 * {"top_left": {"lat": 41, "lon": -74.1}, "bottom_right": {"lat": 40, "lon": -71.1}}}}`; corners as
 * `top_left`/`bottom_right` or `top_right`/`bottom_left` (any geo point form), or `top`, `left`,
 * `bottom`, `right`, or `"wkt": "BBOX (-74.1, -71.1, 41, 40)"` (minLon, maxLon, maxLat, minLat). A box
 * whose left is east of its right crosses the dateline. Points compare encoded, the lower bounds
 * rounded up and the upper ones down, as Lucene encodes them. Scores the boost.
 */
import { JsonObject, describe, hasOwn, isPlainObject } from '../json';
import { withBoost } from '../lucene/query';
import { encodeLatitude, encodeLatitudeCeil, encodeLongitude, encodeLongitudeCeil, normalizePoint } from '../geo/geoPoint';
import { ValidationMethod, geoField, geoLeaf, queryPoint, readValidation } from '../geo/geoLeaf';
import { toDouble } from '../fieldValues';
import { ClauseParser } from './context';
import { at, boostOf, invalid, objectBody, readBoolean, readEnum, readName } from './params';

const PARAMS = ['validation_method', 'ignore_unmapped', 'type', '_name', 'boost'];
const CORNERS = ['top_left', 'bottom_right', 'top_right', 'bottom_left', 'top', 'left', 'bottom', 'right', 'wkt'];

interface Box {
  top: number;
  left: number;
  bottom: number;
  right: number;
}

const BBOX = /^\s*BBOX\s*\(\s*([^,]+),([^,]+),([^,]+),([^,)]+)\)\s*$/i;

function readBox(obj: JsonObject, where: string, validation: ValidationMethod): Box {
  for (const key of Object.keys(obj)) if (!CORNERS.includes(key)) throw invalid(`[geo_bounding_box] unexpected field [${key}] at ${where}`);
  const box: Partial<Box> = {};
  const set = (name: keyof Box, value: number) => {
    box[name] = value;
  };
  if (hasOwn(obj, 'wkt')) {
    const m = typeof obj.wkt === 'string' ? BBOX.exec(obj.wkt) : null;
    const numbers = m === null ? null : m.slice(1).map((s) => toDouble(s.trim()));
    if (numbers === null || numbers.some((n) => n === null)) throw invalid(`[geo_bounding_box] at ${at(where, 'wkt')}: expected "BBOX (minLon, maxLon, maxLat, minLat)", got ${describe(obj.wkt)}`);
    const [minLon, maxLon, maxLat, minLat] = numbers as number[];
    Object.assign(box, { left: minLon, right: maxLon, top: maxLat, bottom: minLat });
  }
  const corner = (name: string, lat: keyof Box, lon: keyof Box) => {
    if (!hasOwn(obj, name)) return;
    const p = queryPoint('geo_bounding_box', obj[name], at(where, name), 'ignore_malformed');
    set(lat, p.lat);
    set(lon, p.lon);
  };
  corner('top_left', 'top', 'left');
  corner('bottom_right', 'bottom', 'right');
  corner('top_right', 'top', 'right');
  corner('bottom_left', 'bottom', 'left');
  for (const side of ['top', 'left', 'bottom', 'right'] as const) {
    if (!hasOwn(obj, side)) continue;
    const n = toDouble(obj[side]);
    if (n === null) throw invalid(`[geo_bounding_box] "${side}" at ${at(where, side)} must be a number, got ${describe(obj[side])}`);
    set(side, n);
  }
  for (const side of ['top', 'left', 'bottom', 'right'] as const) {
    if (box[side] === undefined) throw invalid(`[geo_bounding_box] at ${where}: the box needs its ${side} (top_left and bottom_right, top_right and bottom_left, top/left/bottom/right, or wkt)`);
  }
  const full = box as Box;
  if (validation !== 'ignore_malformed') {
    if (validation === 'strict') {
      for (const lat of [full.top, full.bottom]) if (!(lat >= -90 && lat <= 90)) throw invalid(`[geo_bounding_box] at ${where}: illegal latitude value [${lat}]`);
      for (const lon of [full.left, full.right]) if (!(lon >= -180 && lon <= 180)) throw invalid(`[geo_bounding_box] at ${where}: illegal longitude value [${lon}]`);
    }
    if (full.top < full.bottom) throw invalid(`[geo_bounding_box] at ${where}: top is below bottom corner: ${full.top} vs. ${full.bottom}`);
  }
  if (validation === 'coerce') {
    // GeoBoundingBoxQueryBuilder: a box spanning 360 degrees or more eastwards is the whole longitude range
    const completeLonRange = (full.right - full.left) % 360 === 0 && full.right > full.left;
    const tl = normalizePoint({ lat: full.top, lon: full.left }, true, !completeLonRange);
    const br = normalizePoint({ lat: full.bottom, lon: full.right }, true, !completeLonRange);
    return completeLonRange ? { top: tl.lat, left: -180, bottom: br.lat, right: 180 } : { top: tl.lat, left: tl.lon, bottom: br.lat, right: br.lon };
  }
  return full;
}

export const parseGeoBoundingBox: ClauseParser = (body, path) => {
  const obj = objectBody('geo_bounding_box', body, path);
  const fields = Object.keys(obj).filter((k) => !PARAMS.includes(k));
  if (fields.length !== 1) throw invalid(`[geo_bounding_box] at ${path} takes one geo_point field besides its parameters (${PARAMS.join(', ')}), got ${fields.length}`);
  const field = fields[0];
  const validation = hasOwn(obj, 'validation_method') ? readValidation('geo_bounding_box', obj.validation_method, at(path, 'validation_method')) : 'strict';
  if (hasOwn(obj, 'type')) readEnum('geo_bounding_box', 'type', obj.type, ['indexed', 'memory'], at(path, 'type'));
  const corners = obj[field];
  if (!isPlainObject(corners)) throw invalid(`[geo_bounding_box] field [${field}] at ${at(path, field)} must be an object of corners, got ${describe(corners)}`);
  const box = readBox(corners, at(path, field), validation);
  const ignoreUnmapped = hasOwn(obj, 'ignore_unmapped') ? readBoolean('geo_bounding_box', 'ignore_unmapped', obj.ignore_unmapped, at(path, 'ignore_unmapped')) : false;
  const boost = boostOf('geo_bounding_box', obj, path);
  readName('geo_bounding_box', obj, path);
  return {
    toLucene: (ctx) => {
      const resolved = geoField('geo_bounding_box', field, ctx, ignoreUnmapped, path);
      let { left } = box;
      const { top, bottom, right } = box;
      const key = `geo_bounding_box:${JSON.stringify([field, top, left, bottom, right])}`;
      // LatLonPoint.newBoxQuery
      if (bottom === 90.0) return geoLeaf(key, null, () => false);
      if (left === 180.0) {
        if (right === 180.0) return geoLeaf(key, null, () => false);
        if (right < left) left = -180.0;
      }
      const minLat = encodeLatitudeCeil(bottom);
      const maxLat = encodeLatitude(top);
      const latIn = (lat: number) => lat >= minLat && lat <= maxLat;
      const minLon = encodeLongitudeCeil(left);
      const maxLon = encodeLongitude(right);
      // right < left crosses the dateline: [left, 180] or [-180, right]
      const test = right < left ? (lat: number, lon: number) => latIn(lat) && (lon >= minLon || lon <= maxLon) : (lat: number, lon: number) => latIn(lat) && lon >= minLon && lon <= maxLon;
      // (the strips read: minLon above maxLon is read as crossing the dateline, a superset the test narrows)
      return withBoost(geoLeaf(key, resolved, test, [minLat, maxLat], [minLon, maxLon]), boost);
    },
  };
};
