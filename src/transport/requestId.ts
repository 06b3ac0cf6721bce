import { randomUUID } from 'node:crypto';

const PRINTABLE = /^[\x20-\x7e]{1,128}$/;

/** The client's request id when it is a printable string of at most 128 characters, else a new UUIDv4. */
export function requestIdFrom(candidate: unknown): string {
  return typeof candidate === 'string' && PRINTABLE.test(candidate) ? candidate : randomUUID();
}

/** "Bearer <jwt>" -> jwt; another scheme is passed on whole (and fails verification); absent -> null. */
export function bearerToken(header: string | undefined): string | null {
  if (header === undefined) return null;
  // the usual form, "Bearer <token>" with nothing else, without a regular expression
  if (header.startsWith('Bearer ') && header.length > 7 && header.charCodeAt(7) > 32 && header.indexOf(' ', 7) === -1 && header.indexOf('\t') === -1) return header.slice(7);
  if (header.trim() === '') return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : header.trim();
}
