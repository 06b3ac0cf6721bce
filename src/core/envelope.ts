/** The response envelope of spec 2.1, shared by every operation and every non-GraphQL transport. */
import type { ErrorObject } from './errors';

export interface Envelope {
  requestId: string;
  status: number;
  error: ErrorObject | null;
  controller: string | null;
  action: string | null;
  collection: string | null;
  index: string | null;
  volatile: Record<string, unknown> | null;
  result: unknown;
}
