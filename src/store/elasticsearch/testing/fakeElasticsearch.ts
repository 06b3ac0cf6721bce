/**
 * TEST SUPPORT, never imported by the service: an in-memory stand-in for an Elasticsearch 8 node,
 * plugged into the official client through @elastic/elasticsearch-mock (the client's HTTP layer is
 * replaced; everything above it, request building included, is the real client).
 *
 * It records every request (method, path, query string, body) for request-shape tests, and answers
 * the APIs the store uses the way Elasticsearch does: documents with sequence numbers and primary
 * terms, op_type create and if_seq_no conflicts (409), 404s, `_bulk` item by item, `_mget`, index
 * creation and auto-creation. Searches and counts are answered by the embedded engine (which
 * imitates a one-shard Elasticsearch index): this checks what the store sends and how it reads the
 * answers, NOT Elasticsearch's own query behaviour. `intercept` injects failures (connection
 * errors, error responses, lost answers).
 */
import { Client, errors, type ClientOptions } from '@elastic/elasticsearch';
import Mock from '@elastic/elasticsearch-mock';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { InvalidQueryError, QueryLimitError, type Doc, type Hit, type SearchRequest } from '../../port';
import { SearchIndex, type Mapping } from '../../embedded/engine';
import { propertyTypes } from '../declaredMappings';
import type { Dynamic, FieldMapping } from '../../mapping/typeMapping';

export interface RecordedRequest {
  method: string;
  path: string;
  querystring: Record<string, string>;
  body: any;
}

/** What a handler answers: a body, or an error (a ResponseError carries its status). */
export type FakeAnswer = string | Record<string, any> | Error;
/** Runs before the fake's own handling; `next()` runs that handling. Return undefined to let it answer. */
export type Interceptor = (req: RecordedRequest, next: () => FakeAnswer) => FakeAnswer | undefined;

interface StoredDoc {
  source: Doc;
  seqNo: number;
  primaryTerm: number;
  version: number;
}

export interface FakeIndex {
  name: string;
  settings: Record<string, unknown>;
  mappings: Record<string, unknown>;
  /** Created by a write to a missing index (Elasticsearch's auto-create), without the store's definition. */
  autoCreated: boolean;
  docs: Map<string, StoredDoc>;
  search: SearchIndex;
  nextSeqNo: number;
}

const PRIMARY_TERM = 1;

/** A ResponseError as Elasticsearch would answer it. */
export function esError(statusCode: number, type: string, reason: string, extra: Record<string, unknown> = {}): errors.ResponseError {
  const body = { error: { root_cause: [{ type, reason }], type, reason, ...extra }, status: statusCode };
  return new errors.ResponseError({ body, statusCode, headers: {}, warnings: null, meta: {} as never });
}

function notFoundBody(index: string, id: string): errors.ResponseError {
  return new errors.ResponseError({ body: { _index: index, _id: id, found: false }, statusCode: 404, headers: {}, warnings: null, meta: {} as never });
}

/** The explicit keyword/date fields of an Elasticsearch mapping, for the embedded engine. */
function engineMapping(mappings: Record<string, unknown>): Mapping {
  const keyword: string[] = [];
  const date: string[] = [];
  const walk = (props: unknown, prefix: string) => {
    if (typeof props !== 'object' || props === null) return;
    for (const [name, def] of Object.entries(props as Record<string, { type?: string; properties?: unknown }>)) {
      const path = prefix + name;
      if (def.type === 'keyword') keyword.push(path);
      else if (def.type === 'date') date.push(path);
      if (def.properties !== undefined) walk(def.properties, `${path}.`);
    }
  };
  walk(mappings.properties, '');
  return { keyword, date };
}

/** The index's properties with the fields its documents mapped dynamically (as Elasticsearch's GET _mapping lists them): text with its keyword multi-field, objects as properties. */
function withDynamicFields(index: FakeIndex): Record<string, any> {
  const out = structuredClone((index.mappings.properties ?? {}) as Record<string, any>);
  const mapping = index.search.mappingCopy();
  for (const field of mapping.fieldNames().sort()) {
    const parts = field.split('.');
    const parent = parts.slice(0, -1).join('.');
    if (parts.length > 1 && mapping.type(parent) === 'text') continue; // a multi-field, below
    let level = out;
    for (const part of parts.slice(0, -1)) level = (level[part] ??= { properties: {} }).properties ??= {};
    const leaf = parts[parts.length - 1];
    if (level[leaf] !== undefined) continue;
    const type = mapping.type(field) as string;
    level[leaf] = type === 'text' && mapping.type(`${field}.keyword`) === 'keyword' ? { type, fields: { keyword: { type: 'keyword', ignore_above: 256 } } } : { type };
  }
  return out;
}

/** Aggregation answers as Elasticsearch writes them: top_hits hits name their index. */
function withIndexInTopHits(value: unknown, index: string): unknown {
  if (Array.isArray(value)) return value.map((v) => withIndexInTopHits(v, index));
  if (typeof value !== 'object' || value === null) return value;
  const obj = value as Record<string, unknown>;
  const hits = obj.hits as { hits?: unknown } | undefined;
  if (typeof hits === 'object' && hits !== null && Array.isArray(hits.hits) && 'total' in hits) {
    return { ...obj, hits: { ...hits, hits: hits.hits.map((h) => ({ _index: index, ...(h as object) })) } };
  }
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(obj)) Object.defineProperty(out, key, { value: withIndexInTopHits(obj[key], index), enumerable: true, writable: true, configurable: true });
  return out;
}

function pickSource(source: Doc, includes: string | undefined): Doc {
  if (includes === undefined) return source;
  const out: Doc = {};
  for (const field of includes.split(',')) if (field in source) out[field] = source[field];
  return out;
}

export class FakeElasticsearch {
  readonly requests: RecordedRequest[] = [];
  readonly indices = new Map<string, FakeIndex>();
  private readonly mock = new Mock();
  private interceptors: Interceptor[] = [];
  /** true: every request fails with a connection error, as when the node is down. */
  unreachable = false;

  constructor() {
    this.mock.add({ method: ['GET', 'POST', 'PUT', 'DELETE', 'HEAD'], path: ['/', '/*'] }, (params: any) =>
      this.dispatch({ method: params.method, path: params.path, querystring: { ...params.querystring }, body: params.body ?? undefined }),
    );
  }

  /** Records a request and answers it (interceptors first). */
  dispatch(req: RecordedRequest): FakeAnswer {
    this.requests.push(req);
    if (this.unreachable) return new errors.ConnectionError('connect ECONNREFUSED 127.0.0.1:9200');
    const next = () => this.handle(req);
    for (const interceptor of this.interceptors) {
      const answer = interceptor(req, next);
      if (answer !== undefined) return answer;
    }
    return next();
  }

  /**
   * Serves this fake over real HTTP on 127.0.0.1 (an ephemeral port), so that a gateway configured
   * with ELASTICSEARCH_URL uses the real client end to end (HTTP, headers, NDJSON bulk bodies). A
   * connection error is a reset connection.
   */
  async listen(): Promise<{ url: string; close(): Promise<void> }> {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const url = new URL(req.url ?? '/', 'http://localhost');
        const text = Buffer.concat(chunks).toString('utf8');
        const ndjson = String(req.headers['content-type'] ?? '').includes('ndjson');
        const body = text === '' ? undefined : ndjson ? text.split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l)) : JSON.parse(text);
        const path = url.pathname.split('/').map((p) => decodeURIComponent(p)).join('/');
        const answer = this.dispatch({ method: req.method ?? 'GET', path, querystring: Object.fromEntries(url.searchParams), body });
        if (answer instanceof errors.ResponseError) {
          this.respond(res, answer.statusCode ?? 500, answer.body);
        } else if (answer instanceof Error) {
          req.socket.destroy();
        } else {
          this.respond(res, 200, answer);
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return {
      url: `http://127.0.0.1:${port}`,
      close: () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    };
  }

  private respond(res: ServerResponse, status: number, body: unknown): void {
    const text = body === undefined || body === '' ? '' : JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json', 'x-elastic-product': 'Elasticsearch', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  }

  /** The client's Connection class for this fake (the mock's, with the close() a real connection has). */
  connectionClass(): ClientOptions['Connection'] {
    const Base = this.mock.getConnection() as unknown as new (...args: any[]) => object;
    return class FakeConnection extends Base {
      async close(): Promise<void> {}
    } as unknown as ClientOptions['Connection'];
  }

  /** A client on this fake (the store's own options: no client retries). */
  client(): Client {
    return new Client({ node: 'http://localhost:9200', Connection: this.connectionClass(), maxRetries: 0 });
  }

  intercept(interceptor: Interceptor): () => void {
    this.interceptors.push(interceptor);
    return () => {
      this.interceptors = this.interceptors.filter((i) => i !== interceptor);
    };
  }

  /** Forget the recorded requests (not the data). */
  clearRequests(): void {
    this.requests.length = 0;
  }

  doc(index: string, id: string): Doc | undefined {
    return this.indices.get(index)?.docs.get(id)?.source;
  }

  ids(index: string): string[] {
    return [...(this.indices.get(index)?.docs.keys() ?? [])];
  }

  /** Puts a document directly, as another writer would. */
  put(index: string, id: string, source: Doc): void {
    this.write(this.indexOrCreate(index), id, source);
  }

  private createIndex(name: string, settings: Record<string, unknown>, mappings: Record<string, unknown>, autoCreated: boolean): FakeIndex {
    const index: FakeIndex = { name, settings, mappings, autoCreated, docs: new Map(), search: new SearchIndex(engineMapping(mappings)), nextSeqNo: 0 };
    this.indices.set(name, index);
    return index;
  }

  private indexOrCreate(name: string): FakeIndex {
    return this.indices.get(name) ?? this.createIndex(name, {}, {}, true);
  }

  private write(index: FakeIndex, id: string, source: Doc): StoredDoc & { created: boolean } {
    const previous = index.docs.get(id);
    const stored: StoredDoc = { source: structuredClone(source), seqNo: index.nextSeqNo++, primaryTerm: PRIMARY_TERM, version: (previous?.version ?? 0) + 1 };
    index.docs.set(id, stored);
    index.search.put(id, source);
    return { ...stored, created: previous === undefined };
  }

  private remove(index: FakeIndex, id: string): StoredDoc | undefined {
    const previous = index.docs.get(id);
    if (previous === undefined) return undefined;
    index.docs.delete(id);
    index.search.remove(id);
    index.nextSeqNo++;
    return previous;
  }

  private handle(req: RecordedRequest): FakeAnswer {
    const parts = req.path.split('/').filter((p) => p !== '');
    const q = req.querystring;
    if (parts.length === 0) return req.method === 'HEAD' ? '' : { cluster_name: 'fake', version: { number: '8.19.0' } };
    if (parts[0] === '_bulk') return this.bulk(req.body as Record<string, any>[], undefined);
    const [indexName, api, id] = parts;
    if (api === undefined) return this.indexApi(req.method, indexName, req.body);
    switch (api) {
      case '_bulk':
        return this.bulk(req.body as Record<string, any>[], indexName);
      case '_create':
        return this.docWrite(indexName, id, req.body, { create: true });
      case '_doc':
        if (req.method === 'GET') return this.get(indexName, id, q._source_includes);
        if (req.method === 'DELETE') return this.delete(indexName, id, q);
        return this.docWrite(indexName, id, req.body, { create: q.op_type === 'create', ifSeqNo: q.if_seq_no, ifPrimaryTerm: q.if_primary_term });
      case '_mget':
        return this.mget(indexName, req.body, q._source === 'false', q._source_includes);
      case '_search':
        return this.search(indexName, req.body ?? {}, q);
      case '_count':
        return this.count(indexName, req.body ?? {}, q);
      case '_mapping':
        return req.method === 'GET' ? this.getMapping(indexName) : this.putMapping(indexName, req.body ?? {});
      case '_refresh':
        return { _shards: { total: 1, successful: 1, failed: 0 } };
      default:
        return esError(400, 'illegal_argument_exception', `fake: unsupported API ${req.method} ${req.path}`);
    }
  }

  private getMapping(name: string): FakeAnswer {
    const index = this.indices.get(name);
    if (!index) return esError(404, 'index_not_found_exception', `no such index [${name}]`, { index: name });
    return { [name]: { mappings: { ...index.mappings, properties: withDynamicFields(index) } } };
  }

  /** PUT _mapping: fields merged in (a type never changes: Elasticsearch's 400), `dynamic` and `_meta` replaced; the engine learns the fields. */
  private putMapping(name: string, body: { dynamic?: unknown; properties?: Record<string, any>; _meta?: unknown }): FakeAnswer {
    const index = this.indices.get(name);
    if (!index) return esError(404, 'index_not_found_exception', `no such index [${name}]`, { index: name });
    const types = propertyTypes((index.mappings.properties ?? {}) as Record<string, FieldMapping>);
    for (const [path, type] of propertyTypes(body.properties ?? {})) {
      const before = types.get(path);
      if (before !== undefined && before !== type) return esError(400, 'illegal_argument_exception', `mapper [${path}] cannot be changed from type [${before}] to [${type}]`);
    }
    const merge = (a: Record<string, any>, b: Record<string, any>): Record<string, any> => {
      const out = { ...a };
      for (const [k, v] of Object.entries(b)) out[k] = a[k]?.properties !== undefined && v.properties !== undefined ? { ...a[k], ...v, properties: merge(a[k].properties, v.properties) } : { ...(a[k] ?? {}), ...v };
      return out;
    };
    const mappings: Record<string, unknown> = { ...index.mappings, properties: merge((index.mappings.properties ?? {}) as Record<string, any>, body.properties ?? {}) };
    if (body.dynamic !== undefined) mappings.dynamic = body.dynamic;
    if (body._meta !== undefined) mappings._meta = body._meta;
    index.mappings = mappings;
    index.search.declareMapping({ dynamic: String(mappings.dynamic ?? 'true') as Dynamic, properties: body.properties ?? {} });
    return { acknowledged: true };
  }

  private indexApi(method: string, name: string, body: any): FakeAnswer {
    const index = this.indices.get(name);
    if (method === 'HEAD') return index ? '' : new errors.ResponseError({ body: '', statusCode: 404, headers: {}, warnings: null, meta: {} as never });
    if (method === 'PUT') {
      if (index) return esError(400, 'resource_already_exists_exception', `index [${name}/fake] already exists`, { index: name });
      this.createIndex(name, body?.settings ?? {}, body?.mappings ?? {}, false);
      return { acknowledged: true, shards_acknowledged: true, index: name };
    }
    if (!index) return esError(404, 'index_not_found_exception', `no such index [${name}]`, { index: name });
    if (method === 'DELETE') {
      this.indices.delete(name);
      return { acknowledged: true };
    }
    return { [name]: { settings: index.settings, mappings: index.mappings, aliases: {} } };
  }

  private docWrite(indexName: string, id: string, source: Doc, opts: { create: boolean; ifSeqNo?: string; ifPrimaryTerm?: string }): FakeAnswer {
    const index = this.indexOrCreate(indexName);
    const existing = index.docs.get(id);
    if (opts.create && existing) {
      return esError(409, 'version_conflict_engine_exception', `[${id}]: version conflict, document already exists (current version [${existing.version}])`);
    }
    if (opts.ifSeqNo !== undefined) {
      if (existing === undefined) {
        return esError(409, 'version_conflict_engine_exception', `[${id}]: version conflict, required seqNo [${opts.ifSeqNo}], primary term [${opts.ifPrimaryTerm}] but no document was found`);
      }
      if (String(existing.seqNo) !== opts.ifSeqNo || String(existing.primaryTerm) !== opts.ifPrimaryTerm) {
        return esError(409, 'version_conflict_engine_exception', `[${id}]: version conflict, required seqNo [${opts.ifSeqNo}], primary term [${opts.ifPrimaryTerm}]. current document has seqNo [${existing.seqNo}] and primary term [${existing.primaryTerm}]`);
      }
    }
    const stored = this.write(index, id, source);
    return { _index: indexName, _id: id, _version: stored.version, result: stored.created ? 'created' : 'updated', _seq_no: stored.seqNo, _primary_term: stored.primaryTerm, _shards: { total: 1, successful: 1, failed: 0 } };
  }

  private get(indexName: string, id: string, includes: string | undefined): FakeAnswer {
    const index = this.indices.get(indexName);
    if (!index) return esError(404, 'index_not_found_exception', `no such index [${indexName}]`, { index: indexName });
    const doc = index.docs.get(id);
    if (!doc) return notFoundBody(indexName, id);
    return { _index: indexName, _id: id, _version: doc.version, _seq_no: doc.seqNo, _primary_term: doc.primaryTerm, found: true, _source: pickSource(structuredClone(doc.source), includes) };
  }

  private delete(indexName: string, id: string, q: Record<string, string>): FakeAnswer {
    const index = this.indices.get(indexName);
    if (!index) return esError(404, 'index_not_found_exception', `no such index [${indexName}]`, { index: indexName });
    const existing = index.docs.get(id);
    if (q.if_seq_no !== undefined && (existing === undefined || String(existing.seqNo) !== q.if_seq_no || String(existing.primaryTerm) !== q.if_primary_term)) {
      return esError(409, 'version_conflict_engine_exception', `[${id}]: version conflict, required seqNo [${q.if_seq_no}]`);
    }
    if (!existing) {
      return new errors.ResponseError({ body: { _index: indexName, _id: id, result: 'not_found' }, statusCode: 404, headers: {}, warnings: null, meta: {} as never });
    }
    this.remove(index, id);
    return { _index: indexName, _id: id, result: 'deleted', _seq_no: index.nextSeqNo - 1, _primary_term: PRIMARY_TERM };
  }

  private bulk(lines: Record<string, any>[], defaultIndex: string | undefined): FakeAnswer {
    const items: Record<string, unknown>[] = [];
    for (let i = 0; i < lines.length; i++) {
      const [action, meta] = Object.entries(lines[i])[0] as [string, Record<string, any>];
      const indexName = meta._index ?? defaultIndex;
      const id = String(meta._id);
      let answer: FakeAnswer;
      if (action === 'delete') {
        answer = this.delete(indexName, id, meta.if_seq_no === undefined ? {} : { if_seq_no: String(meta.if_seq_no), if_primary_term: String(meta.if_primary_term) });
      } else {
        const source = lines[++i] as Doc;
        answer = this.docWrite(indexName, id, source, {
          create: action === 'create',
          ifSeqNo: meta.if_seq_no === undefined ? undefined : String(meta.if_seq_no),
          ifPrimaryTerm: meta.if_primary_term === undefined ? undefined : String(meta.if_primary_term),
        });
      }
      if (answer instanceof errors.ResponseError) {
        const body = answer.body as any;
        items.push({ [action]: { _index: indexName, _id: id, status: answer.statusCode, ...(body.error ? { error: { type: body.error.type, reason: body.error.reason } } : { result: body.result }) } });
      } else {
        const ok = answer as Record<string, unknown>;
        items.push({ [action]: { ...ok, status: ok.result === 'created' ? 201 : 200 } });
      }
    }
    return { took: 1, errors: items.some((it) => (Object.values(it)[0] as { status: number }).status >= 300), items };
  }

  private mget(indexName: string, body: any, noSource: boolean, includes: string | undefined): FakeAnswer {
    const index = this.indices.get(indexName);
    const ids: string[] = body.ids ?? (body.docs as { _id: string }[]).map((d) => d._id);
    return {
      docs: ids.map((id) => {
        if (!index) return { _index: indexName, _id: id, error: { type: 'index_not_found_exception', reason: `no such index [${indexName}]` } };
        const doc = index.docs.get(id);
        if (!doc) return { _index: indexName, _id: id, found: false };
        const out: Record<string, unknown> = { _index: indexName, _id: id, _version: doc.version, _seq_no: doc.seqNo, _primary_term: doc.primaryTerm, found: true };
        if (!noSource) out._source = pickSource(structuredClone(doc.source), includes);
        return out;
      }),
    };
  }

  private search(indexName: string, body: any, q: Record<string, string>): FakeAnswer {
    const SEARCH_KEYS = ['query', 'sort', 'search_after', '_source', 'highlight', 'aggs', 'track_total_hits', 'terminate_after', 'min_score', 'post_filter', 'explain', 'collapse', 'fields', 'docvalue_fields', 'stored_fields'] as const;
    const index = this.indices.get(indexName);
    if (!index) {
      if (q.ignore_unavailable === 'true') return { took: 0, timed_out: false, _shards: { total: 0, successful: 0, skipped: 0, failed: 0 }, hits: { total: { value: 0, relation: 'eq' }, max_score: null, hits: [] } };
      return esError(404, 'index_not_found_exception', `no such index [${indexName}]`, { index: indexName });
    }
    const request: SearchRequest = { from: body.from ?? 0, size: body.size ?? 10 };
    for (const key of SEARCH_KEYS) if (body[key] !== undefined) (request as any)[key] = body[key];
    try {
      const result = index.search.search(request, null);
      // Elasticsearch's hit: _index, and inner hits' totals as objects
      const esHit = (h: Hit): Record<string, unknown> => {
        const hit: Record<string, unknown> = { _index: indexName, _id: h._id, _score: h._score };
        if (h._nested !== undefined) hit._nested = h._nested;
        if (h._source !== undefined) hit._source = h._source;
        if (h.fields !== undefined) hit.fields = h.fields;
        if (h.highlight !== undefined) hit.highlight = h.highlight;
        if (h.sort !== undefined) hit.sort = h.sort;
        if (h.inner_hits !== undefined) {
          hit.inner_hits = Object.fromEntries(Object.entries(h.inner_hits).map(([name, inner]) => [name, { hits: { total: { value: inner.hits.total, relation: 'eq' }, max_score: inner.hits.max_score, hits: inner.hits.hits.map(esHit) } }]));
        }
        if (h._explanation !== undefined) hit._explanation = h._explanation;
        return hit;
      };
      const hits = result.hits.map(esHit);
      const scores = result.hits.map((h) => h._score).filter((s): s is number => s !== null);
      // track_total_hits false: no total at all
      const total = result.total < 0 ? {} : { total: { value: result.total, relation: result.total_relation ?? 'eq' } };
      return {
        took: 1,
        timed_out: false,
        ...(result.terminated_early === undefined ? {} : { terminated_early: result.terminated_early }),
        _shards: { total: 1, successful: 1, skipped: 0, failed: 0 },
        hits: { ...total, max_score: scores.length > 0 ? Math.max(...scores) : null, hits },
        ...(result.aggregations === undefined ? {} : { aggregations: withIndexInTopHits(result.aggregations, indexName) }),
      };
    } catch (err) {
      if (err instanceof QueryLimitError && err.limit === 'max_analyzed_offset') return esError(400, 'illegal_argument_exception', err.message);
      if (err instanceof InvalidQueryError) return esError(400, 'parsing_exception', err.message);
      throw err;
    }
  }

  private count(indexName: string, body: any, q: Record<string, string>): FakeAnswer {
    const index = this.indices.get(indexName);
    if (!index) {
      if (q.ignore_unavailable === 'true') return { count: 0, _shards: { total: 0, successful: 0, skipped: 0, failed: 0 } };
      return esError(404, 'index_not_found_exception', `no such index [${indexName}]`, { index: indexName });
    }
    try {
      return { count: index.search.count(body.query, null), _shards: { total: 1, successful: 1, skipped: 0, failed: 0 } };
    } catch (err) {
      if (err instanceof QueryLimitError && err.limit === 'max_analyzed_offset') return esError(400, 'illegal_argument_exception', err.message);
      if (err instanceof InvalidQueryError) return esError(400, 'parsing_exception', err.message);
      throw err;
    }
  }
}
