/** The service log: pino, JSON lines on stdout. Tokens and authorization headers are never written. */
import pino, { type Logger } from 'pino';

export type { Logger };

export function createLogger(level: string): Logger {
  return pino({
    level,
    base: undefined,
    redact: { paths: ['jwt', 'token', 'authorization', '*.jwt', '*.token', '*.authorization', 'headers.authorization', 'req.headers.authorization'], censor: '[redacted]' },
  });
}
