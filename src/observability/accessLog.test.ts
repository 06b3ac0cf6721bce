import { ANONYMOUS } from '../core/principal';
import type { RequestRecord } from '../transport/observe';
import { accessLine, createAccessLog } from './accessLog';
import { aRecord } from './testing/record';

const record = (fields: Partial<RequestRecord> = {}): RequestRecord => aRecord({ caller: { ...ANONYMOUS, userId: 'alice', tenantId: 'acme', apiKeyId: 'key-1' }, ...fields });

function captured(level: 'info' | 'warn' = 'info', worker?: string) {
  const lines: string[] = [];
  const log = createAccessLog(level, worker, { write: (line) => void lines.push(line) });
  return { log, lines: () => lines.map((l) => JSON.parse(l)) };
}

describe('the access log', () => {
  it('writes one line at info per request: who, what, how it went and how long', () => {
    const { log, lines } = captured('info', '2');
    log!(record(), 1.23456);
    expect(lines()).toEqual([
      {
        level: 30,
        time: expect.any(Number),
        worker: '2',
        msg: 'request',
        transport: 'rest',
        method: 'POST',
        path: '/v4/entity/countries/search',
        controller: 'document',
        action: 'search',
        status: 200,
        durationMs: 1.235,
        requestId: 'r1',
        client: '10.0.0.1',
        userId: 'alice',
        tenantId: 'acme',
        apiKeyId: 'key-1',
      },
    ]);
  });

  it('leaves out what is unknown, and cuts what a client wrote long', () => {
    const line = accessLine(record({ caller: undefined, known: false, controller: 'x'.repeat(1000), action: undefined, path: `/v4/${'p'.repeat(1000)}`, requestId: 'r'.repeat(1000), error: 'api.process.action_not_found', status: 404 }), 0);
    expect(JSON.parse(JSON.stringify(line))).toEqual({
      transport: 'rest',
      method: 'POST',
      path: `/v4/${'p'.repeat(252)}…`,
      controller: `${'x'.repeat(128)}…`,
      status: 404,
      error: 'api.process.action_not_found',
      durationMs: 0,
      requestId: `${'r'.repeat(128)}…`,
      client: '10.0.0.1',
    });
  });

  it('is off at a level above info', () => {
    expect(createAccessLog('warn', undefined, { write: () => undefined })).toBeNull();
    expect(createAccessLog('silent', undefined, { write: () => undefined })).toBeNull();
  });
});
