import { apiKeyIndexDefinition, entityIndexDefinition, explicitProperties, slugIndexDefinition } from './mappings';

describe('index definitions', () => {
  it('entities: one shard, the explicit common fields, dynamic mapping for the rest', () => {
    expect(entityIndexDefinition()).toEqual({
      settings: { index: { number_of_shards: 1, auto_expand_replicas: '0-1', mapping: { ignore_malformed: true } } },
      mappings: {
        dynamic: true,
        properties: {
          id: { type: 'keyword' },
          entityType: { type: 'keyword' },
          slug: { type: 'keyword' },
          allowTenantIds: { type: 'keyword' },
          modified: { type: 'date' },
        },
      },
    });
  });

  it('API keys: the key fields as keywords; no token field anywhere', () => {
    const def = apiKeyIndexDefinition();
    expect(def.mappings).toEqual({
      dynamic: true,
      properties: { userId: { type: 'keyword' }, tenantId: { type: 'keyword' }, roles: { type: 'keyword' }, fingerprint: { type: 'keyword' } },
    });
    expect(JSON.stringify(def)).not.toContain('token');
    expect(def.settings).toEqual({ index: { number_of_shards: 1, auto_expand_replicas: '0-1' } });
  });

  it('slug reservations: a closed mapping', () => {
    expect(slugIndexDefinition().mappings).toEqual({
      dynamic: false,
      properties: { collection: { type: 'keyword' }, slug: { type: 'keyword' }, owner: { type: 'keyword' }, reservedAt: { type: 'long' } },
    });
  });

  it('turns dotted explicit fields into object properties', () => {
    expect(explicitProperties({ keyword: ['a.b', 'a.c', 'd'], date: ['a.e.f'] })).toEqual({
      a: { properties: { b: { type: 'keyword' }, c: { type: 'keyword' }, e: { properties: { f: { type: 'date' } } } } },
      d: { type: 'keyword' },
    });
  });

  it('declares every explicit type the embedded engine knows, as Elasticsearch names them', () => {
    expect(explicitProperties({ text: ['t'], long: ['n'], float: ['x'], boolean: ['b'] })).toEqual({
      t: { type: 'text' },
      n: { type: 'long' },
      x: { type: 'float' },
      b: { type: 'boolean' },
    });
  });
});
