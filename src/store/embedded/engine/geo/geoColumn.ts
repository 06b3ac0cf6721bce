/**
 * geo_point fields: which fields are geo points (Elasticsearch never maps one dynamically: a
 * mapping must declare it, `declareGeoPoint`), and each index's points of a field as Lucene keeps
 * them (LatLonDocValuesField: latitude and longitude encoded as 32-bit integers), read from the
 * stored sources once and extended as documents arrive (document numbers only grow; a removed
 * document's points stay, unread, until the index is rebuilt). Values that are not points (or out of
 * range) are skipped, as ignore_malformed would; refusing them is the write path's job.
 */
import { nextSetBit } from '../bitset';
import { InvertedIndex } from '../invertedIndex';
import { IndexMapping } from '../mapping';
import { GeoPointError, checkPoint, encodeLatitude, encodeLongitude, parseGeoPoint } from './geoPoint';

const geoFields = new WeakMap<IndexMapping, Set<string>>();

/** Declares `field` a geo_point in this mapping (declared mappings call it for `"type": "geo_point"`). */
export function declareGeoPoint(mapping: IndexMapping, field: string): void {
  let set = geoFields.get(mapping);
  if (set === undefined) geoFields.set(mapping, (set = new Set()));
  set.add(field);
}

/** The geo_point fields of `from` declared in `to` too (a mapping's copy: single-document matchers). */
export function copyGeoPoints(from: IndexMapping, to: IndexMapping): void {
  for (const field of geoFields.get(from) ?? []) declareGeoPoint(to, field);
}

/** The mapping's geo_point fields. */
export function geoPointFields(mapping: IndexMapping): string[] {
  return [...(geoFields.get(mapping) ?? [])];
}

/** Whether the mapping declares any geo_point field. */
export function hasGeoPoints(mapping: IndexMapping): boolean {
  return (geoFields.get(mapping)?.size ?? 0) > 0;
}

export function isGeoPoint(mapping: IndexMapping, field: string): boolean {
  return geoFields.get(mapping)?.has(field) === true;
}

/** Encoded latitudes per strip: 2^22 of the 2^32 (about 0.18 degrees, 20 km). */
const STRIP_SHIFT = 22;
/** Strips over the encoded latitudes (-2^31 .. 2^31 - 1). */
export const STRIPS = 1 << (32 - STRIP_SHIFT);

/** The strip of an encoded latitude. */
export function stripOf(lat: number): number {
  return (lat >> STRIP_SHIFT) + (STRIPS >> 1);
}

/** The first encoded latitude of strip r (r = STRIPS: one past the last). */
export function stripFirstLat(r: number): number {
  return (r - (STRIPS >> 1)) * (1 << STRIP_SHIFT);
}

/** A column's entries by strips of latitude, each ordered by longitude (GeoColumn.strips). */
export interface GeoStrips {
  readonly lats: Int32Array;
  readonly lons: Int32Array;
  readonly docs: Int32Array;
  /** Strip r's entries are [stripStarts[r], stripStarts[r + 1]). */
  readonly stripStarts: Int32Array;
}

/** One field's points: document d's at [starts[d], starts[d + 1]) of lats/lons (encoded). */
export class GeoColumn {
  starts = new Int32Array(1);
  lats = new Int32Array(16);
  lons = new Int32Array(16);
  /** Documents read (0 .. builtTo - 1). */
  builtTo = 0;
  private end = 0;

  constructor(readonly field: string) {}

  /** The entries in strips (see strips()), built once per extension of the column. */
  private stripIndex: GeoStrips | null = null;

  /**
   * The entries by strips of latitude (rows of 2^ROW_SHIFT encoded units, about 0.18 degrees),
   * each strip ordered by longitude, their coordinates and documents copied in that order: a query
   * bounded in latitude and longitude (a circle, a box) reads, in each strip it crosses, the run of
   * entries within its longitudes, contiguous in memory (as a BKD tree's cells: LatLonPoint's
   * queries visit only the cells their shape crosses). Built once per extension of the column.
   */
  strips(): GeoStrips {
    if (this.stripIndex !== null) return this.stripIndex;
    const n = this.end;
    const entryDoc = new Int32Array(n);
    for (let d = 0; d < this.builtTo; d++) for (let i = this.starts[d]; i < this.starts[d + 1]; i++) entryDoc[i] = d;
    const { lats, lons } = this;
    const order = new Int32Array(n);
    for (let i = 0; i < n; i++) order[i] = i;
    order.sort((a, b) => stripOf(lats[a]) - stripOf(lats[b]) || lons[a] - lons[b]);
    const out: GeoStrips = { lats: new Int32Array(n), lons: new Int32Array(n), docs: new Int32Array(n), stripStarts: new Int32Array(STRIPS + 1) };
    for (let k = 0; k < n; k++) {
      const i = order[k];
      out.lats[k] = lats[i];
      out.lons[k] = lons[i];
      out.docs[k] = entryDoc[i];
      out.stripStarts[stripOf(lats[i]) + 1] = k + 1;
    }
    // strips without entries start where the previous one ends
    for (let r = 1; r <= STRIPS; r++) out.stripStarts[r] = Math.max(out.stripStarts[r], out.stripStarts[r - 1]);
    return (this.stripIndex = out);
  }

  count(doc: number): number {
    return doc < this.builtTo ? this.starts[doc + 1] - this.starts[doc] : 0;
  }

  /** Reads the documents added since the last call. */
  extend(index: InvertedIndex): void {
    const maxDoc = index.maxDoc;
    if (this.builtTo >= maxDoc) return;
    if (this.starts.length < maxDoc + 1) {
      const grown = new Int32Array(Math.max(maxDoc + 1, this.starts.length * 2));
      grown.set(this.starts);
      this.starts = grown;
    }
    const path = this.field.split('.');
    const live = index.live.words;
    let doc = this.builtTo;
    while (doc < maxDoc) {
      const next = nextSetBit(live, doc);
      const stop = next < 0 || next >= maxDoc ? maxDoc : next;
      for (; doc < stop; doc++) this.starts[doc + 1] = this.end; // dead documents: no points
      if (doc >= maxDoc) break;
      const source = index.sourceOf(doc);
      if (source !== undefined) for (const value of valuesAt(source, path, 0)) this.addPoints(value);
      this.starts[doc + 1] = this.end;
      doc++;
    }
    this.builtTo = maxDoc;
    this.stripIndex = null;
  }

  private addPoints(value: unknown): void {
    // an array of numbers is one point ([lon, lat]); any other array a list of points
    if (Array.isArray(value) && (value.length === 0 || typeof value[0] !== 'number')) {
      for (const item of value) this.addPoints(item);
      return;
    }
    if (value === null || value === undefined) return;
    let lat: number;
    let lon: number;
    try {
      const point = checkPoint(parseGeoPoint(value));
      lat = encodeLatitude(point.lat);
      lon = encodeLongitude(point.lon);
    } catch (error) {
      if (error instanceof GeoPointError) return;
      throw error;
    }
    if (this.end === this.lats.length) {
      const lats = new Int32Array(this.end * 2);
      lats.set(this.lats);
      this.lats = lats;
      const lons = new Int32Array(this.end * 2);
      lons.set(this.lons);
      this.lons = lons;
    }
    this.lats[this.end] = lat;
    this.lons[this.end] = lon;
    this.end++;
  }
}

/** The values at a dotted path of a source (through objects and arrays of objects; a key may hold dots itself). */
function valuesAt(node: unknown, path: readonly string[], at: number): unknown[] {
  if (at === path.length) return [node];
  if (Array.isArray(node)) return node.flatMap((item) => valuesAt(item, path, at));
  if (typeof node !== 'object' || node === null) return [];
  const obj = node as Record<string, unknown>;
  const out: unknown[] = [];
  for (let end = at + 1; end <= path.length; end++) {
    const key = path.slice(at, end).join('.');
    if (Object.prototype.hasOwnProperty.call(obj, key)) out.push(...valuesAt(obj[key], path, end));
  }
  return out;
}

const columns = new WeakMap<InvertedIndex, Map<string, GeoColumn>>();

/** The field's points in this index, read up to its last document. */
export function geoColumn(index: InvertedIndex, field: string): GeoColumn {
  let byField = columns.get(index);
  if (byField === undefined) columns.set(index, (byField = new Map()));
  let column = byField.get(field);
  if (column === undefined) byField.set(field, (column = new GeoColumn(field)));
  column.extend(index);
  return column;
}
