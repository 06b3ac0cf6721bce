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

/** Whether the mapping declares any geo_point field. */
export function hasGeoPoints(mapping: IndexMapping): boolean {
  return (geoFields.get(mapping)?.size ?? 0) > 0;
}

export function isGeoPoint(mapping: IndexMapping, field: string): boolean {
  return geoFields.get(mapping)?.has(field) === true;
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

  /** Entries ordered by encoded latitude, and the document of each entry (for lat-bounded scans; see byLatitude). */
  private latOrder: Int32Array | null = null;
  private entryDoc: Int32Array | null = null;

  /**
   * The entries whose encoded latitude is in [minLat, maxLat], as ascending positions into the
   * latitude order, and the entries' documents: queries bounded in latitude (a circle, a box) test
   * only that band instead of every point. Built once per extension of the column.
   */
  byLatitude(minLat: number, maxLat: number): { order: Int32Array; docs: Int32Array; from: number; to: number } {
    if (this.latOrder === null) {
      const n = this.end;
      const docs = new Int32Array(n);
      for (let d = 0; d < this.builtTo; d++) for (let i = this.starts[d]; i < this.starts[d + 1]; i++) docs[i] = d;
      const lats = this.lats;
      const order = new Int32Array(n);
      for (let i = 0; i < n; i++) order[i] = i;
      order.sort((a, b) => lats[a] - lats[b]);
      this.latOrder = order;
      this.entryDoc = docs;
    }
    const order = this.latOrder;
    const lats = this.lats;
    const lower = (bound: number, strict: boolean) => {
      let lo = 0;
      let hi = order.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        const v = lats[order[mid]];
        if (v < bound || (strict && v === bound)) lo = mid + 1;
        else hi = mid;
      }
      return lo;
    };
    return { order, docs: this.entryDoc as Int32Array, from: lower(minLat, false), to: lower(maxLat, true) };
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
    this.latOrder = null;
    this.entryDoc = null;
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
