import { createHash } from 'node:crypto';

/** Lowercase hex SHA-256 of the token string: the only trace of a token that is kept. */
export const fingerprintOf = (token: string): string => createHash('sha256').update(token).digest('hex');
