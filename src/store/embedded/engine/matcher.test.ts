import { InvalidQueryError } from '../../port';
import { compileMatcher } from './matcher';
import { SearchIndex } from './searchIndex';

describe('compileMatcher', () => {
  it('matches single documents with the search semantics', () => {
    const matches = compileMatcher({ bool: { must: { match: { name: 'france' } }, filter: { terms: { allowTenantIds: ['t1', '*'] } } } }, { keyword: ['allowTenantIds'] });
    expect(matches({ name: 'France', allowTenantIds: ['t1'] })).toBe(true);
    expect(matches({ name: 'La France', allowTenantIds: ['*'] })).toBe(true);
    expect(matches({ name: 'France', allowTenantIds: ['t2'] })).toBe(false);
    expect(matches({ name: 'Spain', allowTenantIds: ['t1'] })).toBe(false);
    expect(matches({})).toBe(false);
  });

  it('tokenizes as searches do: ideographs one by one, emoji sequences whole', () => {
    const japan = compileMatcher({ match: { name: '日本' } });
    expect(japan({ name: '東京都 日本語' })).toBe(true);
    expect(japan({ name: '東京都' })).toBe(false);
    const thumb = compileMatcher({ match_phrase: { note: '👍🏽' } });
    expect(thumb({ note: 'great 👍🏽 service' })).toBe(true);
    expect(thumb({ note: 'great 👍 service' })).toBe(false);
  });

  it('uses the explicit mapping and the document for field types', () => {
    const recent = compileMatcher({ range: { modified: { gte: '2024-01-01' } } }, { date: ['modified'] });
    expect(recent({ modified: '2024-02-01T00:00:00Z' })).toBe(true);
    expect(recent({ modified: '2023-02-01T00:00:00Z' })).toBe(false);
    expect(recent({ modified: 'not a date' })).toBe(false);
    const code = compileMatcher({ term: { 'code.keyword': 'FR' } });
    expect(code({ code: 'FR' })).toBe(true);
    expect(code({ code: 'fr' })).toBe(false);
  });

  it('matches nested queries object by object, with the collection\'s nested mapping', () => {
    const index = new SearchIndex();
    index.declareMapping({ dynamic: 'true', properties: { parts: { type: 'nested', properties: { name: { type: 'text' }, screws: { type: 'nested' } } } } });
    const matches = compileMatcher({ nested: { path: 'parts', query: { bool: { must: [{ match: { 'parts.name': 'bolt' } }, { range: { 'parts.n': { gte: 5 } } }] } } } }, () => index.mappingCopy());
    expect(matches({ parts: [{ name: 'bolt', n: 9 }] })).toBe(true);
    expect(matches({ parts: [{ name: 'bolt', n: 3 }, { name: 'nut', n: 9 }] })).toBe(false);
    const deep = compileMatcher({ nested: { path: 'parts.screws', query: { term: { 'parts.screws.size': 4 } } } }, () => index.mappingCopy());
    expect(deep({ parts: [{ screws: [{ size: 3 }] }, { screws: [{ size: 4 }] }] })).toBe(true);
    expect(deep({ parts: [{ screws: [{ size: 3 }] }] })).toBe(false);
    // an unmapped path: a subscription's query that cannot run matches nothing
    expect(compileMatcher({ nested: { path: 'nothing', query: { match_all: {} } } }, () => index.mappingCopy())({ nothing: [{}] })).toBe(false);
  });

  it('does not match a document it cannot evaluate against', () => {
    const big = compileMatcher({ range: { population: { gte: 'many' } } });
    expect(big({ population: 5 })).toBe(false); // the bound is no number for a long field
    expect(big({ population: 'lots' })).toBe(false); // a text field: a term range, "lots" < "many"
  });

  it('validates the query when compiled', () => {
    expect(() => compileMatcher({ fuzzy: {} })).toThrow(InvalidQueryError);
    expect(() => compileMatcher({ match_all: {} })({ any: 1 })).not.toThrow();
    expect(compileMatcher({ match_all: {} })('nope' as unknown as Record<string, unknown>)).toBe(false);
  });
});
