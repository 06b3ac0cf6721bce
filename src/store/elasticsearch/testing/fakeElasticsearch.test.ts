import { errors } from '@elastic/elasticsearch';
import { esError, FakeElasticsearch } from './fakeElasticsearch';

describe('FakeElasticsearch (test support)', () => {
  it('records requests and answers document APIs with versions and conflicts', async () => {
    const fake = new FakeElasticsearch();
    const client = fake.client();
    await client.indices.create({ index: 'i', mappings: { properties: { tag: { type: 'keyword' } } } });
    expect((await client.create({ index: 'i', id: 'a', document: { tag: 'x', text: 'hello world' } }))._seq_no).toBe(0);
    await expect(client.create({ index: 'i', id: 'a', document: {} })).rejects.toMatchObject({ statusCode: 409 });
    await expect(client.index({ index: 'i', id: 'a', document: {}, if_seq_no: 7, if_primary_term: 1 })).rejects.toMatchObject({ statusCode: 409 });
    expect((await client.get({ index: 'i', id: 'a' }))._source).toEqual({ tag: 'x', text: 'hello world' });
    await expect(client.get({ index: 'i', id: 'b' })).rejects.toMatchObject({ statusCode: 404 });
    await expect(client.get({ index: 'nope', id: 'b' })).rejects.toMatchObject({ statusCode: 404 });
    const bulk = await client.bulk({ operations: [{ create: { _index: 'i', _id: 'a' } }, {}, { create: { _index: 'i', _id: 'b' } }, { tag: 'y', text: 'hello' }] });
    expect(bulk.items.map((i) => i.create?.status)).toEqual([409, 201]);
    const search = await client.search({ index: 'i', query: { match: { text: 'hello' } }, track_total_hits: true });
    expect(search.hits.hits.map((h) => h._id)).toEqual(['b', 'a']);
    expect(await client.count({ index: 'i', query: { term: { tag: 'y' } } })).toEqual(expect.objectContaining({ count: 1 }));
    await expect(client.search({ index: 'i', query: { more_like_this: { like: 'x' } } })).rejects.toMatchObject({ statusCode: 400 });
    expect(fake.requests[0]).toEqual({ method: 'PUT', path: '/i', querystring: {}, body: { mappings: { properties: { tag: { type: 'keyword' } } } } });
  });

  it('auto-creates on writes to a missing index, as Elasticsearch does, and says so', async () => {
    const fake = new FakeElasticsearch();
    await fake.client().index({ index: 'auto', id: '1', document: {} });
    expect(fake.indices.get('auto')?.autoCreated).toBe(true);
  });

  it('injects failures', async () => {
    const fake = new FakeElasticsearch();
    const client = fake.client();
    const stop = fake.intercept((req) => (req.method === 'GET' ? esError(503, 'cluster_block_exception', 'blocked') : undefined));
    await expect(client.get({ index: 'i', id: '1' })).rejects.toMatchObject({ statusCode: 503 });
    stop();
    fake.unreachable = true;
    await expect(client.info()).rejects.toBeInstanceOf(errors.ConnectionError);
  });
});
