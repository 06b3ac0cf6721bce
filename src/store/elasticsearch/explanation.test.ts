import { filterFields, withoutFilter } from './explanation';

const tenant = { bool: { should: [{ terms: { allowTenantIds: ['acme', '*'] } }, { term: { owner: 'x' } }] } };

describe('explanations without the visibility filter', () => {
  it('finds the fields the filter tests', () => {
    expect(filterFields(tenant).sort()).toEqual(['allowTenantIds', 'owner']);
    expect(filterFields(null)).toEqual([]);
  });

  it('answers match_all under the filter as *:*, and hides any other mention of it', () => {
    expect(withoutFilter({ value: 1, description: 'ConstantScore(#allowTenantIds:acme)', details: [] }, tenant)).toEqual({ value: 1, description: '*:*', details: [] });
    const mixed = { value: 2, description: 'max of:', details: [{ value: 2, description: 'owner:x', details: [{ value: 1, description: 'n', details: [] }] }] };
    expect(withoutFilter(mixed, tenant)).toEqual({ value: 2, description: 'max of:', details: [{ value: 2, description: 'visibility filter', details: [] }] });
    expect(withoutFilter('nonsense', tenant)).toBeUndefined();
  });
});
