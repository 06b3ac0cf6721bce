/**
 * Geo points as Elasticsearch reads them (GeoUtils.parseGeoPoint) and stores them (Lucene's
 * GeoEncodingUtils: latitude and longitude quantized to 32-bit integers; every distance and sort
 * value is computed on the decoded, quantized values), and distances as it reads them
 * (DistanceUnit). Forms: `{"lat": 41.1, "lon": -71.3}`, `"41.1,-71.3"`, `[-71.3, 41.1]` (lon
 * first, as GeoJSON), `"POINT (-71.3 41.1)"` (WKT), `{"type": "Point", "coordinates": [-71.3,
 * 41.1]}`. Geohashes are not read (a 400 says so).
 */
import { describe } from '../json';
import { toDouble } from '../fieldValues';

export interface GeoPoint {
  readonly lat: number;
  readonly lon: number;
}

/** A value that is not a geo point, with Elasticsearch's reason. */
export class GeoPointError extends Error {}

// GeoEncodingUtils: LAT_DECODE = 1 / LAT_SCALE (not 180 / 2^32: the same rounding as Java's)
const LAT_DECODE = 1 / (2 ** 32 / 180.0);
const LON_DECODE = 1 / (2 ** 32 / 360.0);
/** Math.nextDown(90.0), Math.nextDown(180.0). */
const BELOW_90 = 90 - 2 ** -46;
const BELOW_180 = 180 - 2 ** -45;

function encode(value: number, max: number, belowMax: number, decode: number, round: (x: number) => number): number {
  // the maximum cannot be encoded without overflow: Math.nextDown of it
  return round((value === max ? belowMax : value) / decode) | 0;
}

/** GeoEncodingUtils.encodeLatitude (floor). */
export const encodeLatitude = (lat: number): number => encode(lat, 90, BELOW_90, LAT_DECODE, Math.floor);
/** GeoEncodingUtils.encodeLongitude (floor). */
export const encodeLongitude = (lon: number): number => encode(lon, 180, BELOW_180, LON_DECODE, Math.floor);
/** GeoEncodingUtils.encodeLatitudeCeil (lower bounds of boxes). */
export const encodeLatitudeCeil = (lat: number): number => encode(lat, 90, BELOW_90, LAT_DECODE, Math.ceil);
/** GeoEncodingUtils.encodeLongitudeCeil. */
export const encodeLongitudeCeil = (lon: number): number => encode(lon, 180, BELOW_180, LON_DECODE, Math.ceil);

export function decodeLatitude(encoded: number): number {
  return encoded * LAT_DECODE;
}

export function decodeLongitude(encoded: number): number {
  return encoded * LON_DECODE;
}

/** The point as Lucene stores it (quantized). */
export function quantize(point: GeoPoint): GeoPoint {
  return { lat: decodeLatitude(encodeLatitude(point.lat)), lon: decodeLongitude(encodeLongitude(point.lon)) };
}

function coordinate(value: unknown, name: string): number {
  const d = toDouble(value);
  if (d === null) throw new GeoPointError(`[${name}] must be a number, got ${describe(value)}`);
  return d;
}

const WKT_POINT = /^\s*POINT\s*\(\s*(\S+)\s+(\S+)(?:\s+\S+)?\s*\)\s*$/i;

/** GeoUtils.parseGeoPoint, without range checks (see checkPoint). */
export function parseGeoPoint(value: unknown): GeoPoint {
  if (Array.isArray(value)) {
    if (value.length < 2 || value.length > 3) throw new GeoPointError(`a geo point array must be [lon, lat] (or [lon, lat, z]), got ${value.length} values`);
    return { lon: coordinate(value[0], 'lon'), lat: coordinate(value[1], 'lat') };
  }
  if (typeof value === 'string') {
    const wkt = WKT_POINT.exec(value);
    if (wkt !== null) return { lon: coordinate(wkt[1], 'lon'), lat: coordinate(wkt[2], 'lat') };
    const parts = value.split(',');
    if (parts.length === 2 || parts.length === 3) return { lat: coordinate(parts[0].trim(), 'lat'), lon: coordinate(parts[1].trim(), 'lon') };
    throw new GeoPointError(`unsupported geo point ${JSON.stringify(value)} (geohashes are not supported; give "lat,lon", [lon, lat], {"lat", "lon"} or WKT POINT)`);
  }
  if (typeof value === 'object' && value !== null) {
    const obj = value as Record<string, unknown>;
    if (obj.type !== undefined || obj.coordinates !== undefined) {
      if (typeof obj.type !== 'string' || obj.type.toLowerCase() !== 'point' || !Array.isArray(obj.coordinates)) throw new GeoPointError('a GeoJSON geo point must be {"type": "Point", "coordinates": [lon, lat]}');
      return parseGeoPoint(obj.coordinates);
    }
    const keys = Object.keys(obj);
    if (keys.length !== 2 || !('lat' in obj) || !('lon' in obj)) throw new GeoPointError(`a geo point object must have exactly "lat" and "lon", got ${describe(value)}`);
    return { lat: coordinate(obj.lat, 'lat'), lon: coordinate(obj.lon, 'lon') };
  }
  throw new GeoPointError(`geo_point expected, got ${describe(value)}`);
}

/** GeoUtils' range checks: latitude in [-90, 90], longitude in [-180, 180]. */
export function checkPoint(point: GeoPoint): GeoPoint {
  if (!(point.lat >= -90 && point.lat <= 90)) throw new GeoPointError(`illegal latitude value [${point.lat}]`);
  if (!(point.lon >= -180 && point.lon <= 180)) throw new GeoPointError(`illegal longitude value [${point.lon}]`);
  return point;
}

function centeredModulus(dividend: number, divisor: number): number {
  let rtn = dividend % divisor;
  if (rtn <= 0) rtn += divisor;
  if (rtn > divisor / 2) rtn -= divisor;
  return rtn;
}

/** GeoUtils.normalizePoint (validation_method COERCE): latitude folded into [-90, 90], longitude wrapped into (-180, 180]. */
export function normalizePoint(point: GeoPoint, normLon = true, normLat = true): GeoPoint {
  let { lat, lon } = point;
  const latOut = lat < -90 || lat > 90;
  const lonOut = lon < -180 || lon > 180;
  if (!latOut && !lonOut) return point;
  if (normLat && latOut) {
    lat = centeredModulus(lat, 360);
    let shift = true;
    if (lat < -90) lat = -180 - lat;
    else if (lat > 90) lat = 180 - lat;
    else shift = false;
    if (shift) lon += 180;
  }
  if (normLon) lon = centeredModulus(lon, 360);
  return { lat, lon };
}

/** DistanceUnit, in the order Elasticsearch tries their names (the first suffix found wins). */
const UNITS: readonly [metres: number, names: readonly string[]][] = [
  [0.0254, ['in', 'inch']],
  [0.9144, ['yd', 'yards']],
  [0.3048, ['ft', 'feet']],
  [1000.0, ['km', 'kilometers']],
  [1852.0, ['NM', 'nmi', 'nauticalmiles']],
  [0.001, ['mm', 'millimeters']],
  [0.01, ['cm', 'centimeters']],
  [1609.344, ['mi', 'miles']],
  [1.0, ['m', 'meters']],
];

/** A unit's length in metres (DistanceUnit.fromString), or null. */
export function unitMetres(name: string): number | null {
  for (const [metres, names] of UNITS) if (names.includes(name)) return metres;
  return null;
}

/** DistanceUnit.parse(distance, defaultUnit, METERS): "12km", "5mi", a number in `defaultMetres` units; metres. */
export function parseDistance(value: unknown, defaultMetres = 1): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? (value * defaultMetres) / 1.0 : null;
  if (typeof value !== 'string') return null;
  for (const [metres, names] of UNITS) {
    for (const name of names) {
      if (value.endsWith(name)) {
        const n = toDouble(value.slice(0, value.length - name.length));
        return n === null ? null : (n * metres) / 1.0;
      }
    }
  }
  const n = toDouble(value);
  return n === null ? null : (n * defaultMetres) / 1.0;
}
