/**
 * `_geo_distance` in `sort` (Elasticsearch's GeoDistanceSortBuilder): `{"_geo_distance":
 * {"location": {"lat": 40.7, "lon": -74}, "order": "asc", "unit": "km", "mode": "min",
 * "distance_type": "arc", "ignore_unmapped": false}}`. A document's distances from each of its
 * quantized points to each origin (one point or an array of points), `arc` (SloppyMath haversine,
 * GeoUtils.arcDistance) or `plane` (GeoUtils.planeDistance), in `unit` (default metres), reduced
 * by `mode` (`min` ascending, `max` descending by default, `avg`, `median`); a document without a
 * point sorts as Infinity (last ascending, first descending, as in Elasticsearch). The hit's `sort`
 * holds the distance.
 */
import { InvalidQueryError } from '../../../port';
import { describe, hasOwn, isPlainObject } from '../json';
import { InvertedIndex } from '../invertedIndex';
import { IndexMapping } from '../mapping';
import { GeoPoint, GeoPointError, checkPoint, decodeLatitude, decodeLongitude, normalizePoint, parseGeoPoint, unitMetres } from './geoPoint';
import { geoColumn, isGeoPoint } from './geoColumn';
import { haversinMeters, planeDistance } from './sloppyMath';

export interface GeoSortSpec {
  readonly field: string;
  readonly points: readonly GeoPoint[];
  readonly order: 'asc' | 'desc';
  readonly mode: 'min' | 'max' | 'avg' | 'median';
  readonly unitMetres: number;
  readonly plane: boolean;
  readonly ignoreUnmapped: boolean;
  readonly where: string;
}

const PARAMS = ['order', 'unit', 'mode', 'distance_type', 'ignore_unmapped', 'validation_method'];

function fail(message: string): InvalidQueryError {
  return new InvalidQueryError(message);
}

function enumOf<T extends string>(value: unknown, allowed: readonly T[], name: string, where: string): T {
  const text = typeof value === 'string' ? value.toLowerCase() : null;
  const found = allowed.find((a) => a === text);
  if (found === undefined) throw fail(`sort "_geo_distance" "${name}" at ${where} must be one of ${allowed.join(', ')}, got ${describe(value)}`);
  return found;
}

export function parseGeoSort(value: unknown, where: string): GeoSortSpec {
  if (!isPlainObject(value)) throw fail(`sort "_geo_distance" at ${where} must be an object, got ${describe(value)}`);
  const fields = Object.keys(value).filter((k) => !PARAMS.includes(k));
  if (fields.length !== 1) throw fail(`sort "_geo_distance" at ${where} takes one geo_point field besides ${PARAMS.join(', ')}, got ${fields.length}`);
  const field = fields[0];
  const order = hasOwn(value, 'order') ? enumOf(value.order, ['asc', 'desc'] as const, 'order', where) : 'asc';
  const mode = hasOwn(value, 'mode') ? enumOf(value.mode, ['min', 'max', 'avg', 'median'] as const, 'mode', where) : order === 'desc' ? 'max' : 'min';
  const validation = hasOwn(value, 'validation_method') ? enumOf(value.validation_method, ['strict', 'coerce', 'ignore_malformed'] as const, 'validation_method', where) : 'strict';
  let metres = 1;
  if (hasOwn(value, 'unit')) {
    const found = typeof value.unit === 'string' ? unitMetres(value.unit) : null;
    if (found === null) throw fail(`sort "_geo_distance" at ${where}: no distance unit named ${describe(value.unit)}`);
    metres = found;
  }
  const plane = hasOwn(value, 'distance_type') ? enumOf(value.distance_type, ['arc', 'plane'] as const, 'distance_type', where) === 'plane' : false;
  const ignoreUnmapped = hasOwn(value, 'ignore_unmapped') ? value.ignore_unmapped === true : false;
  if (hasOwn(value, 'ignore_unmapped') && typeof value.ignore_unmapped !== 'boolean') throw fail(`sort "_geo_distance" "ignore_unmapped" at ${where} must be a boolean`);
  const raw = value[field];
  // an array of numbers is one point ([lon, lat]); any other array a list of origins
  const list = Array.isArray(raw) && raw.length > 0 && typeof raw[0] !== 'number' ? raw : [raw];
  const points = list.map((p) => {
    try {
      const point = parseGeoPoint(p);
      return validation === 'coerce' ? normalizePoint(point) : validation === 'strict' ? checkPoint(point) : point;
    } catch (error) {
      if (error instanceof GeoPointError) throw fail(`sort "_geo_distance" at ${where}.${field}: ${error.message}`);
      throw error;
    }
  });
  return { field, points, order, mode, unitMetres: metres, plane, ignoreUnmapped, where };
}

/** The distance of each document for the sort (Infinity without a point). */
export function resolveGeoSort(spec: GeoSortSpec, mapping: IndexMapping, index: InvertedIndex): (doc: number) => number {
  if (!isGeoPoint(mapping, spec.field)) {
    if (spec.ignoreUnmapped && mapping.type(spec.field) === undefined) return () => Infinity;
    throw fail(`sort "_geo_distance" at ${spec.where}: field [${spec.field}] is not a geo_point field (a mapping must declare it "geo_point")`);
  }
  const column = geoColumn(index, spec.field);
  const { points, mode, unitMetres: unit, plane } = spec;
  const distanceOf = plane ? planeDistance : haversinMeters;
  let scratch = new Float64Array(4);
  return (doc) => {
    const n = column.count(doc);
    if (n === 0) return Infinity;
    const from = column.starts[doc];
    const count = n * points.length;
    if (count > scratch.length) scratch = new Float64Array(count);
    let v = 0;
    for (let i = 0; i < n; i++) {
      const lat = decodeLatitude(column.lats[from + i]);
      const lon = decodeLongitude(column.lons[from + i]);
      for (const origin of points) scratch[v++] = (distanceOf(origin.lat, origin.lon, lat, lon) * 1.0) / unit;
    }
    const values = scratch.subarray(0, count);
    if (count > 1) values.sort();
    switch (mode) {
      case 'min':
        return values[0];
      case 'max':
        return values[count - 1];
      case 'avg': {
        let sum = 0;
        for (let i = 0; i < count; i++) sum += values[i];
        return sum / count;
      }
      case 'median': {
        const mid = count >> 1;
        return count % 2 === 1 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
      }
    }
  };
}
