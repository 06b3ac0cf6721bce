import { indexNames } from './indexNames';

describe('indexNames', () => {
  const names = indexNames('gateway');

  it('names one index per collection, <prefix>-<plural>', () => {
    expect(names.entities('countries')).toBe('gateway-countries');
    expect(names.entities('business-units')).toBe('gateway-business-units');
  });

  it('keeps API keys and slug reservations apart from every entity index', () => {
    expect(names.apiKeys).toBe('gateway-api-keys');
    expect(names.slugs).toBe('gateway_slugs');
    // the collection "api-keys" (entity type apiKey) cannot land on the API key index
    expect(names.entities('api-keys')).toBe('gateway-api-keys_entities');
    expect(names.entities('api-keys')).not.toBe(names.apiKeys);
    expect(names.patterns).toEqual(['gateway-*', 'gateway_slugs']);
  });

  it.each(['Countries', 'countries_x', '-countries', 'a--b', '', 'x'.repeat(101)])('refuses the malformed collection %p', (collection) => {
    expect(() => names.entities(collection)).toThrow('invalid collection');
  });

  it.each(['Gateway', '_gw', '-gw', 'g w', '', 'g'.repeat(101)])('refuses the prefix %p', (prefix) => {
    expect(() => indexNames(prefix)).toThrow('invalid index prefix');
  });
});
