/**
 * Single documents, read and written with their ids in the request BODY (`_mget`, `_bulk`), never
 * in the URL path: ids may be "." or ".." (DESIGN.md allows `[A-Za-z0-9_.:-]`), which the HTTP
 * layer would resolve as path segments (`DELETE /index/_doc/..` would become `DELETE /index/`,
 * deleting the index). Reads are realtime, like GET; writes wait for the refresh that makes them
 * searchable (refresh: wait_for).
 */
import { isDeepStrictEqual } from 'node:util';
import type { Doc } from '../port';
import type { Backend } from './backend';
import { bulkItemFailure, bulkItems, isSuccess, type BulkAction } from './bulk';
import { statusOf } from './errors';

export interface Version {
  seqNo: number;
  primaryTerm: number;
}

export interface Versioned extends Version {
  source: Doc;
}

interface MgetDoc {
  _id: string;
  found?: boolean;
  _source?: Doc;
  _seq_no?: number;
  _primary_term?: number;
}

/** Documents by id (one `_mget`), each with its version; null when it (or the index) does not exist. */
export async function readDocuments(backend: Backend, index: string, ids: string[], sourceIncludes?: string[]): Promise<(Versioned | null)[]> {
  if (ids.length === 0) return [];
  try {
    const res = await backend.call('read', (client) =>
      client.mget<Doc>({ index, ids, ...(sourceIncludes === undefined ? {} : { _source_includes: sourceIncludes }) }),
    );
    return (res.docs as MgetDoc[]).map((d) => (d.found === true ? { source: d._source ?? {}, seqNo: Number(d._seq_no), primaryTerm: Number(d._primary_term) } : null));
  } catch (err) {
    if (statusOf(err) === 404) return ids.map(() => null);
    throw err;
  }
}

export async function readDocument(backend: Backend, index: string, id: string): Promise<Versioned | null> {
  return (await readDocuments(backend, index, [id]))[0];
}

/** Which of these ids exist (one `_mget` without sources). */
export async function existingIds(backend: Backend, index: string, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  try {
    const res = await backend.call('read', (client) => client.mget({ index, ids, _source: false }));
    return new Set((res.docs as MgetDoc[]).filter((d) => d.found === true).map((d) => d._id));
  } catch (err) {
    if (statusOf(err) === 404) return new Set();
    throw err;
  }
}

/**
 * After a create answered 409 on a retried request: was it this very document, written by the
 * attempt whose answer was lost? Then the create succeeded.
 */
export async function holdsExactly(backend: Backend, index: string, id: string, source: Doc): Promise<boolean> {
  const stored = await readDocument(backend, index, id);
  return stored !== null && isDeepStrictEqual(stored.source, source);
}

export type SingleWrite = { outcome: 'done'; version: Version } | { outcome: 'conflict' | 'not_found'; version?: undefined };

/**
 * One index or delete through `_bulk` (refresh: wait_for), conditional on a version when given.
 * `retried` tells whether a connection error made the request go twice (the first may have been applied).
 */
export async function writeDocument(
  backend: Backend,
  action: Exclude<BulkAction, 'create'>,
  what: string,
  index: string,
  id: string,
  options: { source?: Doc; ifVersion?: Version; onAttempt?: (attempt: number) => void },
): Promise<SingleWrite> {
  const meta: Record<string, unknown> = { _index: index, _id: id };
  if (options.ifVersion !== undefined) {
    meta.if_seq_no = options.ifVersion.seqNo;
    meta.if_primary_term = options.ifVersion.primaryTerm;
  }
  const operations: unknown[] = [{ [action]: meta }];
  if (action === 'index') operations.push(options.source);
  const response = await backend.call('write', (client, attempt) => {
    options.onAttempt?.(attempt);
    return client.bulk({ operations, refresh: 'wait_for' });
  });
  const [item] = bulkItems(response, action);
  if (isSuccess(item)) return { outcome: 'done', version: { seqNo: Number(item._seq_no), primaryTerm: Number(item._primary_term) } };
  if (item.status === 409) return { outcome: 'conflict' };
  if (item.status === 404) return { outcome: 'not_found' };
  throw bulkItemFailure(what, { ...item, _id: item._id ?? id });
}
