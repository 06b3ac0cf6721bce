/** Test helpers: a small index of countries, and a search of it with aggregations only. */
import { QueryDsl } from '../../../port';
import { SearchIndex, SearchIndexOptions } from '../searchIndex';

export const COUNTRIES = [
  { name: 'France', region: 'Europe', pop: 68, area: 551.5, joined: '1957-03-25', tags: ['eu', 'g7'], tenant: 'a' },
  { name: 'Spain', region: 'Europe', pop: 48, area: 505.9, joined: '1986-01-01', tags: ['eu'], tenant: 'a' },
  { name: 'Japan', region: 'Asia', pop: 125, area: 377.9, joined: '1956-12-18', tags: ['g7'], tenant: 'b' },
  { name: 'Chile', region: 'Americas', pop: 19, joined: '1945-10-24', tenant: 'b' },
  { name: 'Peru', region: 'Americas', pop: 34, area: 1285.2, joined: '1945-10-31', tags: [], tenant: 'a' },
];

export function countriesIndex(options: SearchIndexOptions = {}): SearchIndex {
  const index = new SearchIndex({ keyword: ['tenant'] }, options);
  COUNTRIES.forEach((c, i) => index.put(`c${i}`, c));
  return index;
}

/** The aggregations answered for `aggs` over the documents `query` matches (and `filter`). */
export function aggregations(aggs: Record<string, unknown>, query?: QueryDsl, filter?: QueryDsl, index = countriesIndex()): Record<string, any> {
  return index.search({ from: 0, size: 0, aggs, ...(query === undefined ? {} : { query }) }, filter).aggregations as Record<string, any>;
}
