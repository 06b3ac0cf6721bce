/**
 * Single-document matching for live subscription filters: the query is parsed (and validated) once;
 * each document is then indexed alone, in a throwaway one-document index, and the same query code
 * decides whether it matches, so a matcher agrees with searches on what matches.
 *
 * Limits: field types come from the explicit mapping and the document itself (a search index also
 * remembers the types of fields seen in earlier documents), and statistics do not matter (scores
 * are not computed). A query that cannot run against a given document (e.g. a range bound that is
 * not a number on a field this document maps as a number) does not match it.
 */
import { Doc, InvalidQueryError, QueryDsl } from '../../port';
import { InvertedIndex } from './invertedIndex';
import { isPlainObject } from './json';
import { IndexMapping, Mapping } from './mapping';
import { matchQuery, parseSearchQuery } from './search';

/** Compile once, then tell whether single documents match, without indexing them (used for live subscription filters). */
export function compileMatcher(query: QueryDsl, mapping?: Mapping): (doc: Doc) => boolean {
  const parsed = parseSearchQuery(query, null);
  return (doc: Doc): boolean => {
    if (!isPlainObject(doc)) return false;
    const docMapping = new IndexMapping(mapping);
    const index = new InvertedIndex(false);
    index.addSource('doc', doc, docMapping);
    try {
      return matchQuery(parsed, docMapping, index, false).size > 0;
    } catch (e) {
      if (e instanceof InvalidQueryError) return false;
      throw e;
    }
  };
}
