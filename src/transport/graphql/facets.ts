/**
 * GraphQL's typed view of a search's facets: each top-level `terms`, `range`, `date_range`,
 * `histogram`, `date_histogram` or `filters` aggregation of the request, its buckets as a list
 * whatever `keyed` asked (Elasticsearch answers keyed buckets as an object), each with its key as
 * text, its numeric key, its bounds and its sub-aggregations as JSON. Every aggregation, these
 * included, is also in `aggregations` exactly as Elasticsearch answers it.
 */
import { isPlainObject } from '../../store/embedded/engine/json';

export const FACET_TYPES = ['terms', 'range', 'date_range', 'histogram', 'date_histogram', 'filters'] as const;

export interface FacetBucket {
  key: string;
  keyNumber: number | null;
  docCount: number;
  from: number | null;
  to: number | null;
  aggregations: Record<string, unknown> | null;
}

export interface Facet {
  name: string;
  type: string;
  buckets: FacetBucket[];
  sumOtherDocCount: number | null;
}

/** Members of a bucket that are not sub-aggregations. */
const BUCKET_MEMBERS = new Set(['key', 'key_as_string', 'doc_count', 'doc_count_error_upper_bound', 'from', 'from_as_string', 'to', 'to_as_string']);

/** The type of a request aggregation (its one key besides aggs, aggregations and meta). */
export function aggregationType(def: unknown): string | null {
  if (!isPlainObject(def)) return null;
  return Object.keys(def).find((k) => k !== 'aggs' && k !== 'aggregations' && k !== 'meta') ?? null;
}

function bucketOf(raw: Record<string, unknown>, name: string | null): FacetBucket {
  const key = raw.key;
  const text = typeof raw.key_as_string === 'string' ? raw.key_as_string : key !== undefined ? String(key) : (name ?? '');
  const subs: Record<string, unknown> = {};
  let hasSubs = false;
  for (const member of Object.keys(raw)) {
    if (BUCKET_MEMBERS.has(member)) continue;
    Object.defineProperty(subs, member, { value: raw[member], enumerable: true, writable: true, configurable: true });
    hasSubs = true;
  }
  return {
    key: text,
    keyNumber: typeof key === 'number' ? key : null,
    docCount: typeof raw.doc_count === 'number' ? raw.doc_count : 0,
    from: typeof raw.from === 'number' ? raw.from : null,
    to: typeof raw.to === 'number' ? raw.to : null,
    aggregations: hasSubs ? subs : null,
  };
}

/** The facets of a search: its request's top-level aggregations of a facet type, with their answers. */
export function facetsOf(aggs: Record<string, unknown> | undefined, answers: Record<string, unknown> | undefined): Facet[] {
  if (aggs === undefined || answers === undefined) return [];
  const facets: Facet[] = [];
  for (const name of Object.keys(aggs)) {
    const type = aggregationType(aggs[name]);
    const answer = answers[name];
    if (type === null || !(FACET_TYPES as readonly string[]).includes(type) || !isPlainObject(answer)) continue;
    const raw = answer.buckets;
    const buckets = Array.isArray(raw)
      ? raw.filter(isPlainObject).map((b) => bucketOf(b, null))
      : isPlainObject(raw)
        ? Object.keys(raw).map((k) => bucketOf(isPlainObject(raw[k]) ? (raw[k] as Record<string, unknown>) : {}, k))
        : [];
    facets.push({ name, type, buckets, sumOtherDocCount: typeof answer.sum_other_doc_count === 'number' ? answer.sum_other_doc_count : null });
  }
  return facets;
}
