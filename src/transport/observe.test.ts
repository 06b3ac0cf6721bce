import { CALLER, type Envelope } from '../core/envelope';
import { ApiError } from '../core/errors';
import { ANONYMOUS } from '../core/principal';
import { envelopeRecord } from './observe';

const envelope = (fields: Partial<Envelope>): Envelope => ({ requestId: 'r1', status: 200, error: null, controller: 'document', action: 'search', collection: 'countries', index: 'entity', volatile: null, result: {}, ...fields });

describe('envelopeRecord', () => {
  it('names a known operation, its status and caller', () => {
    const answered = envelope({});
    answered[CALLER] = { ...ANONYMOUS, userId: 'alice' };
    expect(envelopeRecord('rest', answered, 5, '10.0.0.1', 'POST', '/v4/x')).toMatchObject({ transport: 'rest', controller: 'document', action: 'search', known: true, status: 200, requestId: 'r1', client: '10.0.0.1', caller: { userId: 'alice' }, method: 'POST', path: '/v4/x', startedAt: 5 });
  });

  it('does not take an unknown action or a message without one for an operation; tells the policy of a 429', () => {
    const notFound = new ApiError('api.process.action_not_found', { what: 'x' });
    expect(envelopeRecord('websocket', envelope({ status: 404, error: notFound.toObject(), controller: 'nope', action: 'x' }), 0, null)).toMatchObject({ known: false, error: 'api.process.action_not_found' });
    expect(envelopeRecord('websocket', envelope({ controller: null, action: null }), 0, null).known).toBe(false);
    const limited = new ApiError('api.process.too_many_requests', { reason: 'r', policy: 'requests' });
    expect(envelopeRecord('rest', envelope({ status: 429, error: limited.toObject() }), 0, null)).toMatchObject({ status: 429, limitedBy: 'requests', caller: undefined });
  });
});
