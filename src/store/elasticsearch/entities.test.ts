import { errors } from '@elastic/elasticsearch';
import { InvalidQueryError, StoreUnavailableError } from '../port';
import { DocumentRejectedError } from './bulk';
import { entityIndexDefinition, slugIndexDefinition } from './mappings';
import { SLUG_RESERVATION_GRACE_MS, SlugReservations } from './slugReservations';
import { esError } from './testing/fakeElasticsearch';
import { entity, storeOnFake } from './testing/storeOnFake';

const tenant = { terms: { allowTenantIds: ['acme', '*'] } };
const slugId = (slug: string, collection = 'countries') => SlugReservations.docId(collection, slug);
const shape = (r: { method: string; path: string; querystring: Record<string, string> }) => [r.method, r.path, r.querystring];

describe('entities on Elasticsearch: what is sent', () => {
  it('create: the indices on first write, the slug reservation, then the entity with refresh wait_for', async () => {
    const { fake, store } = storeOnFake({ now: () => 42 });
    const fr = entity('fr', 'france');
    expect(await store.entities.create('countries', 'fr', fr)).toBe('ok');
    expect(fake.requests.map(shape)).toEqual([
      ['HEAD', '/gw-countries', {}],
      ['HEAD', '/gw_slugs', {}],
      ['PUT', '/gw-countries', {}],
      ['PUT', '/gw_slugs', {}],
      ['POST', '/_bulk', {}],
      ['POST', '/_bulk', { refresh: 'wait_for' }],
    ]);
    expect(fake.requests[2].body).toEqual(entityIndexDefinition());
    expect(fake.requests[3].body).toEqual(slugIndexDefinition());
    expect(fake.requests[4].body).toEqual([{ create: { _index: 'gw_slugs', _id: slugId('france') } }, { collection: 'countries', slug: 'france', owner: 'fr', reservedAt: 42 }]);
    expect(fake.requests[5].body).toEqual([{ create: { _index: 'gw-countries', _id: 'fr' } }, fr]);

    // the indices are known from now on: a second create sends the two bulks only
    fake.clearRequests();
    expect(await store.entities.create('countries', 'de', entity('de', 'germany'))).toBe('ok');
    expect(fake.requests.map(shape)).toEqual([
      ['POST', '/_bulk', {}],
      ['POST', '/_bulk', { refresh: 'wait_for' }],
    ]);
  });

  it('createMany: one bulk of reservations and one bulk of entities for a batch', async () => {
    const { fake, store } = storeOnFake();
    const items = ['a', 'b', 'c'].map((id) => ({ id, source: entity(id, `slug-${id}`) }));
    expect(await store.entities.createMany('countries', items)).toEqual(['ok', 'ok', 'ok']);
    const bulks = fake.requests.filter((r) => r.path === '/_bulk');
    expect(bulks).toHaveLength(2);
    expect(bulks[1].body).toEqual(items.flatMap(({ id, source }) => [{ create: { _index: 'gw-countries', _id: id } }, source]));
  });

  it('get: a realtime _mget of the id (ids never go into URL paths)', async () => {
    const { fake, store } = storeOnFake();
    await store.entities.create('countries', 'fr', entity('fr', 'france'));
    fake.clearRequests();
    expect(await store.entities.get('countries', 'fr')).toEqual(entity('fr', 'france'));
    expect(fake.requests).toEqual([{ method: 'POST', path: '/gw-countries/_mget', querystring: {}, body: { ids: ['fr'] } }]);
  });

  it('search and count: the tenant filter as bool.filter, track_total_hits, missing index allowed', async () => {
    const { fake, store } = storeOnFake();
    await store.entities.search('business-units', { from: 0, size: 10, query: { match: { name: 'x' } } }, tenant);
    await store.entities.count('business-units', { match: { name: 'x' } }, tenant);
    expect(fake.requests).toEqual([
      {
        method: 'POST',
        path: '/gw-business-units/_search',
        querystring: { ignore_unavailable: 'true', allow_no_indices: 'true' },
        body: { from: 0, size: 10, track_total_hits: true, query: { bool: { must: [{ match: { name: 'x' } }], filter: [tenant] } } },
      },
      {
        method: 'POST',
        path: '/gw-business-units/_count',
        querystring: { ignore_unavailable: 'true', allow_no_indices: 'true' },
        body: { query: { bool: { must: [{ match: { name: 'x' } }], filter: [tenant] } } },
      },
    ]);
  });

  it('replace with the same slug: one conditional write (if_seq_no of the version read)', async () => {
    const { fake, store } = storeOnFake();
    await store.entities.create('countries', 'fr', entity('fr', 'france'));
    fake.clearRequests();
    const next = entity('fr', 'france', { name: 'French Republic' });
    expect(await store.entities.replace('countries', 'fr', next)).toBe('ok');
    expect(fake.requests.map(shape)).toEqual([
      ['POST', '/gw-countries/_mget', {}],
      ['POST', '/_bulk', { refresh: 'wait_for' }],
    ]);
    expect(fake.requests[1].body).toEqual([{ index: { _index: 'gw-countries', _id: 'fr', if_seq_no: 0, if_primary_term: 1 } }, next]);
  });

  it('replace with a new slug: reserve it, write, release the old one (conditionally)', async () => {
    const { fake, store } = storeOnFake();
    await store.entities.create('countries', 'fr', entity('fr', 'france'));
    fake.clearRequests();
    expect(await store.entities.replace('countries', 'fr', entity('fr', 'republic'))).toBe('ok');
    expect(fake.requests.map(shape)).toEqual([
      ['POST', '/gw-countries/_mget', {}],
      ['GET', `/gw_slugs/_doc/${slugId('france')}`, {}],
      ['POST', '/_bulk', {}],
      ['POST', '/_bulk', { refresh: 'wait_for' }],
      ['POST', '/_bulk', {}],
    ]);
    expect(fake.requests[2].body).toEqual([{ create: { _index: 'gw_slugs', _id: slugId('republic') } }, expect.objectContaining({ collection: 'countries', slug: 'republic', owner: 'fr' })]);
    expect(fake.requests[3].body[0]).toEqual({ index: { _index: 'gw-countries', _id: 'fr', if_seq_no: 0, if_primary_term: 1 } });
    expect(fake.requests[4].body).toEqual([{ delete: { _index: 'gw_slugs', _id: slugId('france'), if_seq_no: 0, if_primary_term: 1 } }]);
    expect(fake.ids('gw_slugs')).toEqual([slugId('republic')]);
  });

  it('delete: a conditional delete with refresh wait_for, then the slug released', async () => {
    const { fake, store } = storeOnFake();
    await store.entities.create('countries', 'fr', entity('fr', 'france'));
    fake.clearRequests();
    expect(await store.entities.delete('countries', 'fr')).toBe(true);
    expect(fake.requests.map(shape)).toEqual([
      ['POST', '/gw-countries/_mget', {}],
      ['GET', `/gw_slugs/_doc/${slugId('france')}`, {}],
      ['POST', '/_bulk', { refresh: 'wait_for' }],
      ['POST', '/_bulk', {}],
    ]);
    expect(fake.requests[2].body).toEqual([{ delete: { _index: 'gw-countries', _id: 'fr', if_seq_no: 0, if_primary_term: 1 } }]);
    expect(fake.ids('gw_slugs')).toEqual([]);
    expect(fake.ids('gw-countries')).toEqual([]);
  });

  it('keeps the collection "api-keys" away from the API key index', async () => {
    const { fake, store } = storeOnFake();
    await store.entities.create('api-keys', 'k', entity('k', 'k'));
    expect(fake.ids('gw-api-keys_entities')).toEqual(['k']);
    expect(fake.indices.has('gw-api-keys')).toBe(false);
  });

  it('never relies on auto-created indices', async () => {
    const { fake, store } = storeOnFake();
    await store.entities.createMany('countries', [{ id: 'a', source: entity('a', 'a') }]);
    await store.entities.replace('countries', 'a', entity('a', 'b'));
    await store.entities.delete('countries', 'a');
    for (const index of fake.indices.values()) expect({ index: index.name, autoCreated: index.autoCreated }).toEqual({ index: index.name, autoCreated: false });
  });
});

describe('entities on Elasticsearch: outcomes', () => {
  it('answers like the embedded store for a batch with duplicates: id first, then slug, in order', async () => {
    const { store } = storeOnFake();
    expect(
      await store.entities.createMany('countries', [
        { id: '1', source: entity('1', 'fr') },
        { id: '2', source: entity('2', 'fr') }, // slug of item 1
        { id: '1', source: entity('1', 'de') }, // id of item 1
        { id: '3', source: entity('3', 'de') }, // slug of item 3, which failed: free
        { id: '1', source: entity('1', 'fr') }, // both: the id wins
      ]),
    ).toEqual(['ok', 'slug_taken', 'id_taken', 'ok', 'id_taken']);
  });

  it('an item that fails leaves its id and slug to the next one', async () => {
    const { store } = storeOnFake();
    await store.entities.create('countries', 'x', entity('x', 'taken'));
    expect(
      await store.entities.createMany('countries', [
        { id: 'a', source: entity('a', 'taken') },
        { id: 'a', source: entity('a', 'free') },
      ]),
    ).toEqual(['slug_taken', 'ok']);
  });

  it('gives back the reservation of a create whose id is taken', async () => {
    const { fake, store } = storeOnFake();
    await store.entities.create('countries', 'fr', entity('fr', 'france'));
    expect(await store.entities.create('countries', 'fr', entity('fr', 'other-slug'))).toBe('id_taken');
    expect(fake.ids('gw_slugs')).toEqual([slugId('france')]);
    // ...and keeps the reservation of the existing entity when the slug is its own
    expect(await store.entities.create('countries', 'fr', entity('fr', 'france'))).toBe('id_taken');
    expect(fake.ids('gw_slugs')).toEqual([slugId('france')]);
    expect(await store.entities.create('countries', 'de', entity('de', 'france'))).toBe('slug_taken');
  });

  it('frees a slug on delete and on rename', async () => {
    const { store } = storeOnFake();
    await store.entities.create('countries', 'fr', entity('fr', 'france'));
    await store.entities.replace('countries', 'fr', entity('fr', 'republic'));
    expect(await store.entities.create('countries', 'x', entity('x', 'france'))).toBe('ok');
    expect(await store.entities.replace('countries', 'x', entity('x', 'republic'))).toBe('slug_taken');
    expect(await store.entities.delete('countries', 'fr')).toBe(true);
    expect(await store.entities.replace('countries', 'x', entity('x', 'republic'))).toBe('ok');
  });

  it('slugs are per collection', async () => {
    const { store } = storeOnFake();
    expect(await store.entities.create('countries', 'a', entity('a', 'same'))).toBe('ok');
    expect(await store.entities.create('regions', 'a', entity('a', 'same'))).toBe('ok');
  });

  it('not_found / false for what does not exist, null for a missing index', async () => {
    const { fake, store } = storeOnFake();
    expect(await store.entities.replace('countries', 'nope', entity('nope', 'x'))).toBe('not_found');
    expect(await store.entities.delete('countries', 'nope')).toBe(false);
    expect(await store.entities.get('countries', 'nope')).toBeNull();
    expect(fake.indices.size).toBe(0); // reads and failed writes create nothing
  });

  it('two instances racing for one slug: exactly one entity', async () => {
    const { fake, store: one } = storeOnFake();
    const { store: two } = storeOnFake({}, fake);
    const results = await Promise.all([
      one.entities.create('countries', 'a', entity('a', 'same')),
      two.entities.create('countries', 'b', entity('b', 'same')),
      one.entities.create('countries', 'c', entity('c', 'same')),
      two.entities.createMany('countries', [{ id: 'd', source: entity('d', 'same') }]).then((r) => r[0]),
    ]);
    expect(results.filter((r) => r === 'ok')).toHaveLength(1);
    expect(results.filter((r) => r === 'slug_taken')).toHaveLength(3);
    expect(fake.ids('gw-countries')).toHaveLength(1);
  });

  it('a replace racing another change of the same entity re-reads and keeps every slug reserved', async () => {
    const { fake, store } = storeOnFake();
    await store.entities.create('countries', 'fr', entity('fr', 's1'));
    let once = true;
    fake.intercept((req, next) => {
      // another instance changes the entity between our read and our write
      if (once && req.path === '/_bulk' && req.body[0].index?._id === 'fr') {
        once = false;
        fake.put('gw-countries', 'fr', entity('fr', 's1', { name: 'changed elsewhere' }));
      }
      return next();
    });
    expect(await store.entities.replace('countries', 'fr', entity('fr', 's2'))).toBe('ok');
    expect(fake.doc('gw-countries', 'fr')).toEqual(entity('fr', 's2'));
    expect(fake.ids('gw_slugs')).toEqual([slugId('s2')]);
  });

  it('a stale reservation (left by a crash) blocks its slug for the grace period only', async () => {
    const clock = { now: 0 };
    const { fake, store } = storeOnFake({ now: () => clock.now });
    await store.entities.create('countries', 'seed', entity('seed', 'seed')); // creates the indices
    fake.put('gw_slugs', slugId('ghost'), { collection: 'countries', slug: 'ghost', owner: 'crashed', reservedAt: 0 });
    expect(await store.entities.create('countries', 'a', entity('a', 'ghost'))).toBe('slug_taken');
    clock.now = SLUG_RESERVATION_GRACE_MS + 1;
    expect(await store.entities.create('countries', 'a', entity('a', 'ghost'))).toBe('ok');
  });

  it('undoes a create that stalled past half the grace period and lost its reservation', async () => {
    const clock = { now: 0 };
    const { fake, store } = storeOnFake({ now: () => clock.now });
    await store.entities.create('countries', 'seed', entity('seed', 'seed'));
    fake.intercept((req, next) => {
      if (req.path === '/_bulk' && req.querystring.refresh === 'wait_for' && req.body[0].create?._id === 'slow') {
        // the write stalls; meanwhile another instance takes the (apparently stale) reservation over
        clock.now += SLUG_RESERVATION_GRACE_MS + 1;
        fake.put('gw_slugs', slugId('contested'), { collection: 'countries', slug: 'contested', owner: 'fast', reservedAt: clock.now });
        fake.put('gw-countries', 'fast', entity('fast', 'contested'));
      }
      return next();
    });
    expect(await store.entities.create('countries', 'slow', entity('slow', 'contested'))).toBe('slug_taken');
    expect(fake.ids('gw-countries').sort()).toEqual(['fast', 'seed']);
  });

  it('a create whose answer was lost and retried is still "ok" (its own document answers the 409)', async () => {
    const { fake, store } = storeOnFake();
    let lose = true;
    fake.intercept((req, next) => {
      if (lose && req.path === '/_bulk' && req.querystring.refresh === 'wait_for') {
        lose = false;
        next(); // applied...
        return new errors.ConnectionError('socket hang up'); // ...but the answer is lost
      }
      return undefined;
    });
    expect(await store.entities.create('countries', 'fr', entity('fr', 'france'))).toBe('ok');
    expect(fake.ids('gw_slugs')).toEqual([slugId('france')]);
  });

  it('a delete whose answer was lost and retried is still true', async () => {
    const { fake, store } = storeOnFake();
    await store.entities.create('countries', 'fr', entity('fr', 'france'));
    let lose = true;
    fake.intercept((req, next) => {
      if (lose && req.path === '/_bulk' && req.body[0].delete?._index === 'gw-countries') {
        lose = false;
        next();
        return new errors.ConnectionError('socket hang up');
      }
      return undefined;
    });
    expect(await store.entities.delete('countries', 'fr')).toBe(true);
    expect(fake.ids('gw_slugs')).toEqual([]);
  });
});

describe('entities on Elasticsearch: failures', () => {
  it('an unreachable cluster is StoreUnavailableError for every operation', async () => {
    const { fake, store } = storeOnFake();
    fake.unreachable = true;
    const all = [
      store.entities.search('countries', { from: 0, size: 10 }, null),
      store.entities.count('countries', undefined, null),
      store.entities.get('countries', 'fr'),
      store.entities.create('countries', 'fr', entity('fr', 'fr')),
      store.entities.createMany('countries', [{ id: 'fr', source: entity('fr', 'fr') }]),
      store.entities.replace('countries', 'fr', entity('fr', 'fr')),
      store.entities.delete('countries', 'fr'),
    ];
    for (const op of all) await expect(op).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(await store.ready()).toBe(false);
  });

  it('a rejected item (429) is StoreUnavailableError; a document Elasticsearch refuses is DocumentRejectedError', async () => {
    const { fake, store } = storeOnFake();
    await store.entities.create('countries', 'seed', entity('seed', 'seed'));
    const stop = fake.intercept((req) =>
      req.querystring.refresh === 'wait_for'
        ? { errors: true, items: [{ create: { _index: 'gw-countries', _id: 'a', status: 429, error: { type: 'es_rejected_execution_exception', reason: 'queue full' } } }] }
        : undefined,
    );
    await expect(store.entities.create('countries', 'a', entity('a', 'a'))).rejects.toBeInstanceOf(StoreUnavailableError);
    stop();
    fake.intercept((req) =>
      req.querystring.refresh === 'wait_for'
        ? { errors: true, items: [{ create: { _index: 'gw-countries', _id: 'b', status: 400, error: { type: 'document_parsing_exception', reason: 'failed to parse' } } }] }
        : undefined,
    );
    await expect(store.entities.create('countries', 'b', entity('b', 'b'))).rejects.toBeInstanceOf(DocumentRejectedError);
    // the reservations of both were given back
    expect(fake.ids('gw_slugs')).toEqual([slugId('seed')]);
  });

  it("a query Elasticsearch refuses is InvalidQueryError with its reason", async () => {
    const { fake, store } = storeOnFake();
    fake.intercept((req) => (req.path.endsWith('/_search') ? esError(400, 'query_shard_exception', 'No mapping found for [name] in order to sort on') : undefined));
    await expect(store.entities.search('countries', { from: 0, size: 10, sort: ['name'] }, null)).rejects.toEqual(new InvalidQueryError('No mapping found for [name] in order to sort on'));
  });
});
