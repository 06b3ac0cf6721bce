/**
 * Geo coordinates of a Koncorde filter, checked before Koncorde stores it: its geospatial index
 * (boost-geospatial-index, a native addon) aborts the whole process, on a failed assertion, when a
 * `geoDistance` or `geoDistanceRange` centre has a latitude beyond ±90 (`{"geoDistance": {"p":
 * {"lat": 100, "lon": 0}, "distance": "1km"}}`). Every latitude of a geo keyword must be a finite
 * number within [-90, 90] and every longitude within [-180, 180], in centres, boxes and polygons
 * alike, whatever form the point was written in (Koncorde's standardizer has made them numbers).
 */
import { childrenOf, keywordOf, standardize, type StandardFilter } from './koncordeStandard';

export interface GeoProblem {
  reason: string;
  keyword: string;
  path: string;
}

type Shape = Record<string, unknown> | number[][];

const latitudeProblem = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v >= -90 && v <= 90 ? undefined : `latitude ${String(v)} is not within [-90, 90]`);
const longitudeProblem = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v >= -180 && v <= 180 ? undefined : `longitude ${String(v)} is not within [-180, 180]`);

function shapeProblem(kind: string, shape: Shape): string | undefined {
  if (Array.isArray(shape)) {
    for (const point of shape) {
      const problem = latitudeProblem(point[0]) ?? longitudeProblem(point[1]);
      if (problem !== undefined) return problem;
    }
    return undefined;
  }
  if (kind === 'geoBoundingBox') return latitudeProblem(shape.top) ?? latitudeProblem(shape.bottom) ?? longitudeProblem(shape.left) ?? longitudeProblem(shape.right);
  return latitudeProblem(shape.lat) ?? longitudeProblem(shape.lon);
}

/** The first geo coordinate out of range in the filter (or in a `select`'s query), or undefined. */
export function geoProblem(filter: unknown): GeoProblem | undefined {
  const standardized = standardize(filter);
  return standardized === undefined ? undefined : walk(standardized);
}

function walk(f: StandardFilter): GeoProblem | undefined {
  const keyword = keywordOf(f);
  if (keyword === 'and' || keyword === 'or') {
    for (const child of childrenOf(f)) {
      const problem = walk(child);
      if (problem !== undefined) return problem;
    }
    return undefined;
  }
  if (keyword === 'not') return walk(f.not as StandardFilter);
  if (keyword === 'select') return geoProblem((f.select as { query?: unknown }).query);
  if (keyword !== 'geospatial') return undefined;
  for (const [kind, byField] of Object.entries(f.geospatial as Record<string, Record<string, Shape>>)) {
    for (const [field, shape] of Object.entries(byField)) {
      const reason = shapeProblem(kind, shape);
      if (reason !== undefined) return { reason: `"${kind}.${field}": ${reason}`, keyword: kind, path: `${kind}.${field}` };
    }
  }
  return undefined;
}
