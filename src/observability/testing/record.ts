/** A request record for tests: a REST search answered 200, with these fields instead. */
import { ANONYMOUS } from '../../core/principal';
import type { RequestRecord } from '../../transport/observe';

export const aRecord = (fields: Partial<RequestRecord> = {}): RequestRecord => ({
  transport: 'rest',
  method: 'POST',
  path: '/v4/entity/countries/search',
  controller: 'document',
  action: 'search',
  known: true,
  status: 200,
  error: undefined,
  limitedBy: undefined,
  requestId: 'r1',
  client: '10.0.0.1',
  caller: ANONYMOUS,
  operationName: undefined,
  startedAt: 0,
  ...fields,
});
