/**
 * An Elasticsearch `_explanation` as the gateway answers it: without the caller's visibility filter.
 * Elasticsearch explains the query it ran, `{bool: {must: [query], filter: [visibility filter]}}`:
 * "sum of:" the query's explanation and "match on required clause, product of:" the filter's (or,
 * for a match_all query, "ConstantScore(<filter>)"). The filter scores nothing, so the gateway
 * answers the query's own explanation, as the embedded store does (explain/explainHit.ts); any
 * other part that names a field of the filter is replaced by "visibility filter".
 */
import type { Explanation, QueryDsl } from '../port';
import { isPlainObject } from '../embedded/engine/json';

/** The fields the visibility filter tests (the keys under its leaf clauses). */
export function filterFields(filter: QueryDsl | null): string[] {
  const out = new Set<string>();
  const walk = (value: unknown, parent: string | null) => {
    if (Array.isArray(value)) return value.forEach((v) => walk(v, parent));
    if (!isPlainObject(value)) return;
    for (const [key, inner] of Object.entries(value)) {
      if (parent !== null && parent !== 'bool' && !['must', 'filter', 'should', 'must_not'].includes(parent) && !key.startsWith('_') && key !== 'boost') out.add(key);
      walk(inner, key);
    }
  };
  walk(filter, null);
  return [...out];
}

function isExplanation(value: unknown): value is Explanation {
  return isPlainObject(value) && typeof value.value === 'number' && typeof value.description === 'string';
}

function clean(e: Explanation, mentions: (text: string) => boolean): Explanation {
  if (mentions(e.description)) return { value: e.value, description: 'visibility filter', details: [] };
  const details = Array.isArray(e.details) ? e.details.filter(isExplanation).map((d) => clean(d, mentions)) : [];
  return { value: e.value, description: e.description, details };
}

export function withoutFilter(raw: unknown, filter: QueryDsl | null): Explanation | undefined {
  if (!isExplanation(raw)) return undefined;
  const fields = filterFields(filter);
  // a field named as a whole word (`allowTenantIds:acme`, `allowTenantIds:(* acme)`, a quoted name), not as part of another's
  const patterns = fields.map((f) => new RegExp(`(^|[^\\w.])${f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}([^\\w.]|$)`));
  const mentions = (text: string) => patterns.some((p) => p.test(text));
  if (fields.length === 0) return clean(raw, () => false);
  const details = Array.isArray(raw.details) ? raw.details.filter(isExplanation) : [];
  // the restricted query's "sum of:": the query's explanation, and the filter's required clause
  if (raw.description === 'sum of:' && details.length === 2 && details[1].description === 'match on required clause, product of:' && details[1].details.some((d) => mentions(d.description))) {
    return clean(details[0], mentions);
  }
  // match_all under the filter: ConstantScore(<filter>)
  if (raw.description.startsWith('ConstantScore(') && mentions(raw.description)) return { value: raw.value, description: '*:*', details: [] };
  return clean(raw, mentions);
}
