import { InvalidQueryError } from '../../../port';
import { SearchIndex } from '../searchIndex';
import { COUNTRIES, expectedScore, indexAll } from '../testing';

const f = Math.fround;
const index = indexAll(new SearchIndex({ keyword: ['id'] }), COUNTRIES);
const search = (query: Record<string, unknown>) => index.search({ query, from: 0, size: 10 });
const scores = (query: Record<string, unknown>) => search(query).hits.map((h) => [h._id, f(h._score as number)]);

// name: lengths 1, 2, 2 (N = 3, avgdl 5/3); tags: "wine cheese" (2 tokens), "space" (1), none (N = 2, avgdl 3/2)
const nameFrance = expectedScore({ N: 3, avgdl: 5 / 3, n: 1, freq: 1, dl: 1 });
const tagsWine = expectedScore({ N: 2, avgdl: 3 / 2, n: 1, freq: 1, dl: 2 });

describe('multi_match', () => {
  it('best_fields takes the best field (dis_max, tie_breaker 0)', () => {
    expect(scores({ multi_match: { query: 'france wine', fields: ['name', 'tags'] } })).toEqual([['1', Math.max(nameFrance, tagsWine)]]);
  });

  it('adds tie_breaker times the other fields', () => {
    const best = Math.max(nameFrance, tagsWine);
    const other = Math.min(nameFrance, tagsWine);
    expect(scores({ multi_match: { query: 'france wine', fields: ['name', 'tags'], tie_breaker: 0.3 } })).toEqual([['1', f(best + other * f(0.3))]]);
  });

  it('most_fields sums the fields (tie_breaker 1: a flattened BooleanQuery)', () => {
    expect(scores({ multi_match: { query: 'france wine', fields: ['name', 'tags'], type: 'most_fields' } })).toEqual([['1', f(nameFrance + tagsWine)]]);
  });

  it('applies field boosts as query boosts', () => {
    const boosted = expectedScore({ N: 3, avgdl: 5 / 3, n: 1, freq: 1, dl: 1, boost: 2 });
    expect(scores({ multi_match: { query: 'france wine', fields: ['name^2', 'tags'] } })).toEqual([['1', Math.max(boosted, tagsWine)]]);
    // a field named twice multiplies... no: the later spec replaces the earlier one, as in Elasticsearch's builder
    expect(scores({ multi_match: { query: 'france', fields: ['name^3', 'name^2'] } })).toEqual([['1', boosted]]);
  });

  it('expands field patterns, skipping unmapped fields and being lenient for *', () => {
    expect(scores({ multi_match: { query: 'france', fields: ['na*'] } })).toEqual([['1', nameFrance]]);
    expect(search({ multi_match: { query: 'france wine', fields: ['*'] } }).hits.map((h) => h._id)).toEqual(['1']);
    expect(search({ multi_match: { query: 'france wine' } }).hits.map((h) => h._id)).toEqual(['1']);
    expect(search({ multi_match: { query: 'france', fields: ['nope', 'nada*'] } }).total).toBe(0);
    expect(() => search({ multi_match: { query: 'lots', fields: ['population'] } })).toThrow(InvalidQueryError);
  });

  it('runs phrases per field with type phrase', () => {
    expect(search({ multi_match: { query: 'french guiana', fields: ['name', 'tags'], type: 'phrase' } }).hits.map((h) => h._id)).toEqual(['2']);
    expect(search({ multi_match: { query: 'guiana french', fields: ['name'], type: 'phrase' } }).total).toBe(0);
    expect(search({ multi_match: { query: 'guiana french', fields: ['name'], type: 'phrase', slop: 2 } }).total).toBe(1);
  });

  it('applies operator and minimum_should_match per field', () => {
    expect(search({ multi_match: { query: 'south africa', fields: ['name', 'tags'], operator: 'and' } }).hits.map((h) => h._id)).toEqual(['3']);
    expect(search({ multi_match: { query: 'south france', fields: ['name'], minimum_should_match: '100%' } }).total).toBe(0);
  });

  it('runs phrase_prefix per field (match_phrase_prefix), with slop and max_expansions', () => {
    expect(scores({ multi_match: { query: 'fra', fields: ['name', 'tags'], type: 'phrase_prefix' } })).toEqual([['1', nameFrance]]);
    expect(search({ multi_match: { query: 'french g', fields: ['name'], type: 'phrase_prefix' } }).hits.map((h) => h._id)).toEqual(['2']);
    expect(search({ multi_match: { query: 'guiana fr', fields: ['name'], type: 'phrase_prefix', slop: 2 } }).hits.map((h) => h._id)).toEqual(['2']);
    expect(search({ multi_match: { query: 'fr', fields: ['name'], type: 'phrase_prefix', max_expansions: 1 } }).hits.map((h) => h._id)).toEqual(['1']);
    // a keyword field refuses phrase prefixes, unless lenient (fields "*" is)
    expect(() => search({ multi_match: { query: 'fr', fields: ['name', 'id'], type: 'phrase_prefix' } })).toThrow('Can only use phrase prefix queries on text fields - not on [id]');
    expect(search({ multi_match: { query: 'fr', type: 'phrase_prefix' } }).total).toBe(2);
  });

  it('runs bool_prefix per field (match_bool_prefix), summing the fields by default (tie_breaker 1)', () => {
    // France: in name, "fra" prefixes "france" (constant 1); in tags, "wine" is a term: 1 + BM25
    expect(scores({ multi_match: { query: 'wine fra', fields: ['name', 'tags'], type: 'bool_prefix' } })).toEqual([['1', f(tagsWine + 1)]]);
    expect(scores({ multi_match: { query: 'wine fra', fields: ['name', 'tags'], type: 'bool_prefix', tie_breaker: 0 } })).toEqual([['1', Math.max(tagsWine, 1)]]);
    // "wi" prefixes "wine" in tags only
    expect(scores({ multi_match: { query: 'fra wi', fields: ['name', 'tags'], type: 'bool_prefix' } })).toEqual([['1', 1]]);
    expect(search({ multi_match: { query: 'south a', fields: ['name'], type: 'bool_prefix', operator: 'and' } }).hits.map((h) => h._id)).toEqual(['3']);
    expect(() => search({ multi_match: { query: 'fra', fields: ['name'], type: 'bool_prefix', slop: 1 } })).toThrow('[slop] not allowed for type [bool_prefix]');
    // fuzziness makes the terms fuzzy, not the prefix: "sotuh" is "south" with a transposition
    expect(search({ multi_match: { query: 'sotuh a', fields: ['name', 'tags'], type: 'bool_prefix', fuzziness: 'AUTO', operator: 'and' } }).hits.map((h) => h._id)).toEqual(['3']);
    expect(search({ multi_match: { query: 'sotuh a', fields: ['name', 'tags'], type: 'bool_prefix', operator: 'and' } }).total).toBe(0);
  });

  it('rejects unknown types, bad max_expansions and malformed fields', () => {
    expect(() => search({ multi_match: { query: 'x', type: 'nope' } })).toThrow(InvalidQueryError);
    expect(() => search({ multi_match: { query: 'x', type: 'phrase_prefix', max_expansions: 0 } })).toThrow('max_expansions');
    expect(() => search({ multi_match: { query: 'x', fields: ['name^x'] } })).toThrow('invalid boost');
    expect(() => search({ multi_match: { query: 'x', fields: [1] } })).toThrow('query.multi_match.fields[0]');
    expect(() => search({ multi_match: { fields: ['name'] } })).toThrow('needs a "query"');
    expect(() => search({ multi_match: { query: 'x', tie_breaker: 2 } })).toThrow('tie_breaker');
  });
});
