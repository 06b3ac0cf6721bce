/**
 * The ids an import gives lines that carry none: the import's random id (a UUID v4) with the line
 * number in its last 12 hex digits. Derived, not drawn at random, so that a batch written again
 * after a crash gets the same ids (and is found already there) instead of a second copy; distinct
 * between imports (80 random bits), and a well-formed UUID.
 */
import { randomUUID } from 'node:crypto';

export const newImportId = (): string => randomUUID();

export function lineId(importId: string, line: number): string {
  return `${importId.slice(0, 24)}${line.toString(16).padStart(12, '0')}`;
}
