/**
 * What the geo queries share: the geo_point field a query names (a 400 when the mapping does not
 * declare one, or match nothing with `ignore_unmapped`), `validation_method`, reading a point of a
 * query, and a cacheable leaf of the live documents having a point that passes a test of encoded
 * coordinates (LatLonPoint's queries compare the encoded values).
 */
import { InvertedIndex } from '../invertedIndex';
import { Matches } from '../lucene/matches';
import { LQuery, matchNone, setLeaf } from '../lucene/query';
import { BuildContext } from '../query/context';
import { invalid, readEnum } from '../query/params';
import { hasBit, wordsFor } from '../bitset';
import { sortDistinct } from '../lucene/docSets';
import { GeoPoint, GeoPointError, checkPoint, decodeLatitude, normalizePoint, parseGeoPoint } from './geoPoint';
import { GeoStrips, geoColumn, isGeoPoint, stripFirstLat, stripOf } from './geoColumn';

export const VALIDATION_METHODS = ['strict', 'coerce', 'ignore_malformed'] as const;
export type ValidationMethod = (typeof VALIDATION_METHODS)[number];

export function readValidation(clause: string, value: unknown, where: string): ValidationMethod {
  return readEnum(clause, 'validation_method', value, VALIDATION_METHODS, where);
}

/** A point of a query at `where`, checked (strict), normalized (coerce) or taken as is. */
export function queryPoint(clause: string, value: unknown, where: string, validation: ValidationMethod): GeoPoint {
  try {
    const point = parseGeoPoint(value);
    if (validation === 'coerce') return normalizePoint(point);
    return validation === 'strict' ? checkPoint(point) : point;
  } catch (error) {
    if (error instanceof GeoPointError) throw invalid(`[${clause}] at ${where}: ${error.message}`);
    throw error;
  }
}

/** The field a geo query may run on: null when unmapped and `ignore_unmapped` (the query matches nothing). */
export function geoField(clause: string, field: string, ctx: BuildContext, ignoreUnmapped: boolean, where: string): string | null {
  if (isGeoPoint(ctx.mapping, field)) return field;
  const type = ctx.mapping.type(field);
  if (type !== undefined) throw invalid(`[${clause}] at ${where}: field [${field}] is of type [${type}], but a geo_point field is expected`);
  if (ignoreUnmapped) return null;
  throw invalid(`[${clause}] at ${where}: failed to find geo_point field [${field}] (a mapping must declare it "geo_point")`);
}

/**
 * A constant-score leaf: live documents with a point of `field` passing `test(encodedLat, encodedLon)`;
 * with `latBounds` (encoded, inclusive: no point outside passes the test), only the points of the
 * strips of that band of latitudes are tested, and with `lonBounds` too (encoded, inclusive; a
 * minimum above the maximum crosses the dateline; no point outside them matches, whatever the test
 * says: it need not check them) only their runs within those longitudes; `widths` narrows each
 * strip's run further (StripLongitudes).
 */
export function geoLeaf(key: string, field: string | null, test: (lat: number, lon: number) => boolean, latBounds?: readonly [number, number], lonBounds?: readonly [number, number], widths?: StripLongitudes): LQuery {
  if (field === null) return matchNone(`unmapped geo field`);
  return setLeaf(key, (index: InvertedIndex, fromDoc: number) => {
    const column = geoColumn(index, field);
    if (latBounds !== undefined) return stripMatches(column.strips(), index, fromDoc, latBounds, lonBounds, test, widths);
    const live = index.live.words;
    const out: number[] = [];
    const { starts, lats, lons } = column;
    const to = Math.min(column.builtTo, index.maxDoc);
    for (let doc = fromDoc; doc < to; doc++) {
      const end = starts[doc + 1];
      for (let i = starts[doc]; i < end; i++) {
        if (test(lats[i], lons[i])) {
          if (hasBit(live, doc)) out.push(doc);
          break;
        }
      }
    }
    return Matches.list(Int32Array.from(out), out.length, null, 0);
  });
}

/**
 * For the points of the latitudes [minLat, maxLat] (degrees): the longitudes (encoded, inclusive)
 * within which every one passes a leaf's test (they match without the test), and those outside of
 * which none does (they are not looked at); null for either when it cannot be told.
 */
export type StripLongitudes = (minLat: number, maxLat: number) => { inner: readonly [number, number] | null; outer: readonly [number, number] | null };

function stripMatches(strips: GeoStrips, index: InvertedIndex, fromDoc: number, [minLat, maxLat]: readonly [number, number], lonBounds: readonly [number, number] | undefined, test: (lat: number, lon: number) => boolean, widths: StripLongitudes | undefined): Matches {
  const live = index.live.words;
  const { lats, lons, docs, stripStarts } = strips;
  // each strip's runs, found first: [from, to) tested, [from, to) taken whole (the circle's inside)
  const runs: number[] = [];
  let bound = 0;
  const run = (from: number, to: number, whole: boolean) => {
    if (from >= to) return;
    runs.push(from, to, whole ? 1 : 0);
    bound += to - from;
  };
  for (let r = stripOf(minLat), last = stripOf(maxLat); r <= last; r++) {
    const start = stripStarts[r];
    const end = stripStarts[r + 1];
    if (start === end) continue;
    if (lonBounds === undefined) run(start, end, false);
    else if (lonBounds[0] <= lonBounds[1]) {
      // over all of the strip's latitudes: a strip reaching beyond the shape has no inner longitudes
      const strip = widths === undefined ? null : widths(decodeLatitude(stripFirstLat(r)), decodeLatitude(stripFirstLat(r + 1) - 1));
      const outer = strip?.outer ?? null;
      const from = firstAtLeast(lons, start, end, Math.max(lonBounds[0], outer?.[0] ?? lonBounds[0]));
      const to = firstAtLeast(lons, start, end, Math.min(lonBounds[1], outer?.[1] ?? lonBounds[1]) + 1);
      const within = strip === null || from >= to ? null : strip.inner;
      if (within === null || within[0] > within[1]) {
        run(from, to, false);
        continue;
      }
      // inside: every point of the strip between these longitudes matches
      const a = Math.max(from, firstAtLeast(lons, from, to, within[0]));
      const b = Math.max(a, firstAtLeast(lons, a, to, within[1] + 1));
      run(from, a, false);
      run(a, b, true);
      run(b, to, false);
    } else {
      run(firstAtLeast(lons, start, end, lonBounds[0]), end, false);
      run(start, firstAtLeast(lons, start, end, lonBounds[1] + 1), false);
    }
  }
  // Lucene's DocIdSetBuilder: a bitset once more than maxDoc / 128 documents may match (no sort),
  // else a list sorted at the end (the runs give the documents in strip order)
  const maxDoc = index.maxDoc;
  const bits = bound > maxDoc >>> 7 ? new Uint32Array(wordsFor(maxDoc)) : null;
  const found = bits === null ? new Int32Array(bound) : null;
  let n = 0;
  for (let i = 0; i < runs.length; i += 3) {
    const whole = runs[i + 2] === 1;
    for (let k = runs[i], to = runs[i + 1]; k < to; k++) {
      const doc = docs[k];
      if (doc < fromDoc || !hasBit(live, doc) || (!whole && !test(lats[k], lons[k]))) continue;
      if (bits === null) (found as Int32Array)[n++] = doc;
      else if ((bits[doc >>> 5] & (1 << (doc & 31))) === 0) {
        bits[doc >>> 5] |= 1 << (doc & 31);
        n++;
      }
    }
  }
  if (bits !== null) return Matches.bits(bits, n, 0);
  return Matches.list(found as Int32Array, sortDistinct(found as Int32Array, n), null, 0);
}

/** The first position in [from, to) of ascending `values` holding at least `value` (`to` when none). */
function firstAtLeast(values: Int32Array, from: number, to: number, value: number): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
