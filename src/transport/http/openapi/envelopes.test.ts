import type { OperationContract } from '../../../core/contract';
import { ok } from '../../../core/errors';
import { defineOperation } from '../../../core/operation';
import { Components } from './components';
import { errorExamples, operationName, operationResponses, sharedErrorResponses } from './envelopes';

const contract: OperationContract = {
  summary: 'Frob a thing',
  description: 'd',
  result: { type: 'object', properties: { frobbed: { type: 'boolean' } } },
  resultExample: { frobbed: true },
  errors: ['services.storage.not_found', 'api.assert.invalid_argument'],
};
const op = (isPublic: boolean, addressesCollection = false) =>
  defineOperation({ controller: 'thing', action: 'frob', addressesCollection, public: isPublic, contract, parse: () => ok(undefined), run: () => ok({ frobbed: true }) });

describe('envelopes', () => {
  it('names an operation after its controller and action', () => {
    expect(operationName({ controller: 'auth', action: 'createApiKey' })).toBe('AuthCreateApiKey');
  });

  it("answers 200 with the operation's envelope, and its errors by status (shared responses where all operations answer alike)", () => {
    const components = new Components();
    const responses = operationResponses(op(false, true), components, 'countries');
    expect(Object.keys(responses)).toEqual(['200', '400', '401', '404', '413', '429', '500', '503']);
    expect(responses['200'].content).toMatchObject({
      'application/json': { schema: { $ref: '#/components/schemas/ThingFrobResponse' }, example: { status: 200, error: null, controller: 'thing', action: 'frob', collection: 'countries', index: 'entity', result: { frobbed: true } } },
    });
    expect((components.schemas.ThingFrobResponse.properties as any).result).toEqual(contract.result);
    expect((components.schemas.ThingFrobResponse.properties as any).collection).toEqual({ type: 'string' });
    const bad = (responses['400'].content as any)['application/json'];
    expect(bad.schema.properties.error.properties.id.enum).toEqual(['api.assert.invalid_argument', 'network.http.body_parse_failed', 'api.assert.body_too_deep']);
    expect(bad.examples['api.assert.invalid_argument']).toEqual({ $ref: '#/components/examples/api.assert.invalid_argument' });
    expect(responses['401']).toEqual({ $ref: '#/components/responses/Error401' });
    expect((responses['429'] as any).$ref).toBe('#/components/responses/Error429');
  });

  it('leaves the token errors out of a public operation', () => {
    const responses = operationResponses(op(true), new Components(), 'countries');
    expect(Object.keys(responses)).toEqual(['200', '400', '404', '413', '429', '500']);
    expect((responses['200'].content as any)['application/json'].example).toMatchObject({ collection: null, index: null });
  });

  it('has the shared error responses (Retry-After on 429) and one example envelope per catalogue id', () => {
    const shared = sharedErrorResponses(new Components());
    expect(Object.keys(shared)).toEqual(['Error400', 'Error401', 'Error413', 'Error429', 'Error500', 'Error503']);
    expect(Object.keys(shared.Error429.headers as object)).toContain('Retry-After');
    expect(Object.keys(shared.Error401.headers as object)).not.toContain('Retry-After');
    expect(errorExamples()['services.storage.not_found'].value).toMatchObject({ status: 404, result: null, error: { id: 'services.storage.not_found', message: 'country "atlantis" not found.' } });
  });
});
