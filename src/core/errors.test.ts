import { SearchRejectedError } from '../store/port';
import { ApiError, catalogue, toApiError } from './errors';

describe('error catalogue', () => {
  // The numeric codes of DESIGN.md's table (Kuzzle's codes, so that Kuzzle clients react to them).
  it.each([
    ['security.rights.unauthorized', 401, 117637121],
    ['security.token.invalid', 401, 117506049],
    ['security.token.expired', 401, 117506054],
    ['security.token.ttl_exceeded', 400, 117506052],
    ['security.rights.forbidden', 403, 117637122],
    ['api.assert.missing_argument', 400, 33619971],
    ['api.assert.invalid_type', 400, 33619969],
    ['api.assert.invalid_argument', 400, 33619970],
    ['api.assert.body_required', 400, 33619976],
    ['api.assert.koncorde_dsl_error', 400, 33619982],
    ['api.process.action_not_found', 404, 33685509],
    ['api.process.too_many_requests', 429, 33685512],
    ['services.storage.not_found', 404, 16842763],
    ['services.storage.document_already_exists', 409, 16842769],
    ['services.storage.get_limit_exceeded', 413, 16842755],
    ['services.storage.not_connected', 503, 16842776],
    ['network.http.request_too_large', 413, 50397185],
    ['network.http.body_parse_failed', 400, 50397196],
  ] as const)('%s is status %i, code %i', (id, status, code) => {
    expect(catalogue[id].status).toBe(status);
    expect(catalogue[id].code).toBe(code);
  });

  it('gives every entry a distinct code', () => {
    const codes = Object.values(catalogue).map((e) => e.code);
    expect(new Set(codes).size).toBe(codes.length);
  });

  it('fills the message from props and keeps them on the object', () => {
    const err = new ApiError('api.assert.missing_argument', { name: 'description' });
    expect(err.toObject()).toEqual({
      id: 'api.assert.missing_argument',
      code: 33619971,
      status: 400,
      message: 'Missing argument "description".',
      props: { name: 'description' },
    });
  });

  it('answers a search refused for a full queue with 429 services.storage.search_rejected, saying when to retry', () => {
    const err = toApiError(new SearchRejectedError(2, 1000));
    expect(err.toObject()).toEqual({
      id: 'services.storage.search_rejected',
      code: 16843021,
      status: 429,
      message: 'Rejected execution of a search: 2 costly searches are running and 1000 waiting (SEARCH_CONCURRENCY, SEARCH_QUEUE_SIZE); retry in 1 s.',
      props: { running: 2, queued: 1000, retryAfter: 1 },
    });
  });

  it('masks anything that is not an ApiError', () => {
    const masked = toApiError(new Error('database password is hunter2'));
    expect(masked.id).toBe('core.fatal.unexpected_error');
    expect(masked.status).toBe(500);
    expect(masked.message).toBe('Internal error');
  });
});
