/**
 * Single-document matching for live subscription filters: the query is parsed (and validated) once;
 * each document is then indexed alone, under its real `_id`, in a throwaway one-document index
 * mapped like the collection's index (a copy of its mapping: the field types every earlier document
 * fixed), and the same query code decides whether it matches. So a matcher agrees with a search of
 * the collection on what matches (scores and statistics do not matter here). Date math on `now` is
 * evaluated at each call: at the time of the write. A query that cannot run against a given
 * document (e.g. a range bound that is not a number on a field the document maps as a number) does
 * not match it.
 */
import { Doc, InvalidQueryError, QueryDsl } from '../../port';
import { InvertedIndex } from './invertedIndex';
import { hasGeoPoints } from './geo/geoColumn';
import { isPlainObject } from './json';
import { DEFAULT_LIMITS, QueryLimits } from './limits';
import { IndexMapping, Mapping } from './mapping';
import { matchQuery, parseSearchQuery } from './search';

/** A document's match against a compiled query, by its id and source. */
export type DocMatcher = (doc: Doc, id?: string) => boolean;

/**
 * Compile once, then tell whether single documents match, without indexing them in the collection.
 * `mapping`: the collection's current mapping (a function giving a copy of it, read at each call), or
 * an explicit Mapping (then fields the document alone maps are typed from it).
 */
export function compileMatcher(query: QueryDsl, mapping?: Mapping | (() => IndexMapping), limits: QueryLimits = DEFAULT_LIMITS): DocMatcher {
  const parsed = parseSearchQuery(query, null, limits);
  return (doc: Doc, id = 'doc'): boolean => {
    if (!isPlainObject(doc)) return false;
    const docMapping = typeof mapping === 'function' ? mapping() : new IndexMapping(mapping);
    // sources are kept only for geo_point fields, which geo queries read from them (geo/geoColumn.ts)
    const index = new InvertedIndex(hasGeoPoints(docMapping));
    index.addSource(id, doc, docMapping);
    try {
      return matchQuery(parsed, docMapping, index, false).size > 0;
    } catch (e) {
      if (e instanceof InvalidQueryError) return false;
      throw e;
    }
  };
}
