import * as engine from './index';
import { SearchIndex, compileMatcher, type Mapping } from './index';

describe('engine public API', () => {
  it('exports SearchIndex, compileMatcher and the default limits (Mapping, QueryLimits are types)', () => {
    expect(Object.keys(engine).sort()).toEqual(['DEFAULT_LIMITS', 'SearchIndex', 'compileMatcher']);
  });

  it('works end to end', () => {
    const mapping: Mapping = { keyword: ['id', 'entityType', 'slug', 'allowTenantIds'], date: ['modified'] };
    const index = new SearchIndex(mapping);
    index.put('fr', { id: 'fr', name: 'France', allowTenantIds: ['*'], modified: '2024-01-05T10:00:00.000Z' });
    expect(index.size).toBe(1);
    const result = index.search({ query: { match: { name: 'france' } }, from: 0, size: 10 }, { terms: { allowTenantIds: ['t1', '*'] } });
    expect(result.total).toBe(1);
    expect(result.hits[0]._id).toBe('fr');
    expect(index.count(undefined, null)).toBe(1);
    expect(compileMatcher({ range: { modified: { lt: 'now' } } }, mapping)(index.get('fr') as Record<string, unknown>)).toBe(true);
  });
});
