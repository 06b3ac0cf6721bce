import { Backend } from './backend';
import { IndexManager } from './indexManager';
import { entityIndexDefinition } from './mappings';
import { esError, FakeElasticsearch } from './testing/fakeElasticsearch';

describe('IndexManager', () => {
  it('creates a missing index once, with its definition (HEAD, then PUT)', async () => {
    const fake = new FakeElasticsearch();
    const indices = new IndexManager(new Backend(fake.client()));
    await Promise.all([indices.ensure('gw-countries', entityIndexDefinition), indices.ensure('gw-countries', entityIndexDefinition)]);
    await indices.ensure('gw-countries', entityIndexDefinition);
    expect(fake.requests.map((r) => [r.method, r.path])).toEqual([
      ['HEAD', '/gw-countries'],
      ['PUT', '/gw-countries'],
    ]);
    expect(fake.requests[1].body).toEqual(entityIndexDefinition());
    expect(fake.indices.get('gw-countries')?.autoCreated).toBe(false);
  });

  it('only checks an index that exists', async () => {
    const fake = new FakeElasticsearch();
    fake.put('gw-countries', 'x', {});
    const indices = new IndexManager(new Backend(fake.client()));
    await indices.ensure('gw-countries', entityIndexDefinition);
    expect(fake.requests.map((r) => r.method)).toEqual(['HEAD']);
  });

  it('accepts losing the race to another instance (resource_already_exists_exception)', async () => {
    const fake = new FakeElasticsearch();
    fake.intercept((req) => (req.method === 'PUT' ? esError(400, 'resource_already_exists_exception', 'index [gw-countries] already exists') : undefined));
    const indices = new IndexManager(new Backend(fake.client()));
    await expect(indices.ensure('gw-countries', entityIndexDefinition)).resolves.toBeUndefined();
  });

  it('tries again on the next write when creating failed', async () => {
    const fake = new FakeElasticsearch();
    const stop = fake.intercept((req) => (req.method === 'PUT' ? esError(400, 'illegal_argument_exception', 'bad settings') : undefined));
    const indices = new IndexManager(new Backend(fake.client()));
    await expect(indices.ensure('gw-countries', entityIndexDefinition)).rejects.toThrow();
    stop();
    await indices.ensure('gw-countries', entityIndexDefinition);
    expect(fake.indices.has('gw-countries')).toBe(true);
  });
});
