import { errors } from '@elastic/elasticsearch';
import { InvalidQueryError, StoreUnavailableError } from '../port';
import { Backend } from './backend';
import { esError, FakeElasticsearch } from './testing/fakeElasticsearch';

describe('Backend', () => {
  it('retries a connection error, telling the operation which attempt it is', async () => {
    const fake = new FakeElasticsearch();
    let failures = 1;
    fake.intercept(() => (failures-- > 0 ? new errors.ConnectionError('socket hang up') : undefined));
    const backend = new Backend(fake.client(), { retry: { retries: 2, baseDelayMs: 1, maxDelayMs: 1 } });
    const attempts: number[] = [];
    expect(await backend.call('read', (client, attempt) => (attempts.push(attempt), client.ping()))).toBe(true);
    expect(attempts).toEqual([0, 1]);
  });

  it('answers StoreUnavailableError once retries are spent', async () => {
    const fake = new FakeElasticsearch();
    fake.unreachable = true;
    const backend = new Backend(fake.client(), { retry: { retries: 2, baseDelayMs: 1, maxDelayMs: 1 } });
    await expect(backend.call('read', (client) => client.info())).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(fake.requests).toHaveLength(3);
  });

  it('maps a 400 of a query to InvalidQueryError, and passes a 409 on', async () => {
    const fake = new FakeElasticsearch();
    fake.intercept((req) => (req.path.endsWith('_search') ? esError(400, 'parsing_exception', 'unknown query [fuzzy]') : esError(409, 'version_conflict_engine_exception', 'exists')));
    const backend = new Backend(fake.client());
    await expect(backend.call('query', (client) => client.search({ index: 'x' }))).rejects.toEqual(new InvalidQueryError('unknown query [fuzzy]'));
    await expect(backend.call('write', (client) => client.create({ index: 'x', id: '1', document: {} }))).rejects.toBeInstanceOf(errors.ResponseError);
  });
});
