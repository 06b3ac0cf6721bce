/**
 * Reads a JSON request body within the size limit. Failures are the catalogue's network errors.
 */
import type { IncomingMessage } from 'node:http';
import { ApiError } from '../../core/errors';

export type BodyOutcome = { ok: true; body: unknown } | { ok: false; error: ApiError };

const isJson = (contentType: string): boolean => {
  if (contentType === 'application/json') return true;
  const type = contentType.split(';')[0].trim().toLowerCase();
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));
};

export function readJsonBody(req: IncomingMessage, limit: number): Promise<BodyOutcome> {
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) {
    req.resume();
    return Promise.resolve({ ok: false, error: new ApiError('network.http.request_too_large', { limit }) });
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (outcome: BodyOutcome) => {
      if (!done) {
        done = true;
        resolve(outcome);
      }
    };
    req.on('data', (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > limit) {
        finish({ ok: false, error: new ApiError('network.http.request_too_large', { limit }) });
        req.resume();
        return;
      }
      chunks.push(chunk);
    });
    req.on('error', () => finish({ ok: false, error: new ApiError('network.http.body_parse_failed', { reason: 'the request was interrupted' }) }));
    req.on('end', () => {
      if (size === 0) return finish({ ok: true, body: undefined });
      const contentType = req.headers['content-type'];
      if (contentType === undefined || !isJson(contentType)) {
        return finish({
          ok: false,
          error: new ApiError('network.http.body_parse_failed', { reason: `Content-Type must be application/json (got "${contentType ?? 'none'}")` }),
        });
      }
      const text = (chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size)).toString('utf8');
      if (text.trim() === '') return finish({ ok: true, body: undefined });
      try {
        finish({ ok: true, body: JSON.parse(text) });
      } catch (err) {
        finish({ ok: false, error: new ApiError('network.http.body_parse_failed', { reason: (err as Error).message }) });
      }
    });
  });
}
