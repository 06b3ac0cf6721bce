/**
 * Reading `_bulk` answers item by item. An item that failed for a reason the store does not expect
 * becomes an error: unavailable (429 rejected execution, 5xx) as StoreUnavailableError, a document
 * Elasticsearch refuses (400: a field whose value cannot be mapped, too many fields) as
 * DocumentRejectedError, anything else as a plain Error.
 */
import { InvalidDocumentError, StoreUnavailableError } from '../port';

export interface BulkItem {
  status: number;
  _id?: string;
  _seq_no?: number;
  _primary_term?: number;
  result?: string;
  error?: { type?: string; reason?: string; caused_by?: { reason?: string } };
}

export type BulkAction = 'create' | 'index' | 'delete';

interface BulkResponseLike {
  items: Partial<Record<string, unknown>>[];
}

/** The items of a bulk answer, in request order, all for one action. */
export function bulkItems(response: BulkResponseLike, action: BulkAction): BulkItem[] {
  return response.items.map((entry, i) => {
    const item = entry[action] as BulkItem | undefined;
    if (item === undefined) throw new Error(`bulk answer item ${i} holds no "${action}" result`);
    return item;
  });
}

export const isSuccess = (item: BulkItem): boolean => item.status >= 200 && item.status < 300;

/** Elasticsearch refused a document (HTTP 400 on write): a value that does not fit the index's mapping. */
export class DocumentRejectedError extends InvalidDocumentError {
  constructor(
    message: string,
    readonly ids: string[],
  ) {
    super(message);
    this.name = 'DocumentRejectedError';
  }
}

export function bulkItemFailure(what: string, item: BulkItem): Error {
  const reason = item.error ? `${item.error.type}: ${item.error.caused_by?.reason ?? item.error.reason}` : 'no reason given';
  if (item.status === 429 || item.status >= 500) return new StoreUnavailableError(`Elasticsearch is unavailable (${what}: HTTP ${item.status}, ${reason})`);
  if (item.status === 400) return new DocumentRejectedError(`Elasticsearch refused ${what} "${item._id}": ${reason}`, item._id === undefined ? [] : [item._id]);
  return new Error(`Elasticsearch refused ${what} "${item._id}" (HTTP ${item.status}, ${reason})`);
}
