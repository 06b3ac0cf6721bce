/**
 * Shared helpers of the end-to-end suite (test/e2e): one request shape sent over either transport
 * (REST or raw WebSocket), envelope and error assertions, hand-built bad tokens, data-dir scans.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import { request, SocketClient, type TestServer } from './testServer';

/** One request, written once, sent by either transport. */
export interface Call {
  controller: string;
  action: string;
  collection?: string;
  _id?: string;
  body?: unknown;
  /** from, size, expiresIn...: REST query parameters, WebSocket top-level message fields. */
  args?: Record<string, string | number>;
  /** Bearer JWT (REST Authorization header, WebSocket `jwt` field); omitted = none sent. */
  token?: string;
  /**
   * REST X-Request-Id header, WebSocket `requestId` field. null: send none at all (on WebSocket the
   * answer is then the next message received); undefined: the WebSocket client adds its own.
   */
  requestId?: string | null;
  /** Sent on WebSocket only (REST has no place for it). */
  volatile?: Record<string, unknown>;
}

export interface Answer {
  /** The HTTP status (REST) or null (WebSocket). */
  httpStatus: number | null;
  /** The envelope of spec 2.1 (plus `room` on WebSocket). */
  envelope: any;
  /** The response exactly as received, for "this string must not appear" checks. */
  text: string;
  /** Response headers (REST) or null. */
  headers: Headers | null;
}

export interface Transport {
  name: 'REST' | 'WebSocket';
  call(c: Call): Promise<Answer>;
  close(): Promise<void>;
}

function restTarget(c: Call): { method: string; path: string } {
  const id = c._id === undefined ? '' : encodeURIComponent(c._id);
  const coll = `/v4/entity/${c.collection ?? ''}`;
  const table: Record<string, { method: string; path: string }> = {
    'auth:createApiKey': { method: 'POST', path: '/v4/api-keys/_create' },
    'auth:searchApiKeys': { method: 'POST', path: '/v4/api-keys/_search' },
    'auth:deleteApiKey': { method: 'DELETE', path: `/v4/api-keys/${id}` },
    'auth:checkToken': { method: 'POST', path: '/v4/_checkToken' },
    'document:search': { method: 'POST', path: `${coll}/search` },
    'document:count': { method: 'POST', path: `${coll}/count` },
    'document:create': { method: 'POST', path: coll },
    'document:get': { method: 'GET', path: `${coll}/${id}` },
    'document:replace': { method: 'PUT', path: `${coll}/${id}` },
    'document:update': { method: 'PATCH', path: `${coll}/${id}` },
    'document:delete': { method: 'DELETE', path: `${coll}/${id}` },
    'document:mCreate': { method: 'POST', path: `${coll}/_bulk` },
    'collection:getMapping': { method: 'GET', path: `${coll}/_mapping` },
    'collection:updateMapping': { method: 'PUT', path: `${coll}/_mapping` },
    'auth:getCurrentUser': { method: 'GET', path: '/v4/_me' },
    'auth:checkRights': { method: 'POST', path: '/v4/_checkRights' },
    'server:now': { method: 'GET', path: '/v4/_now' },
    'server:info': { method: 'GET', path: '/v4/_serverInfo' },
    'server:healthCheck': { method: 'GET', path: '/v4/_healthCheck' },
    'server:getConfig': { method: 'GET', path: '/v4/_getConfig' },
  };
  const target = table[`${c.controller}:${c.action}`];
  if (target === undefined) throw new Error(`no REST route for ${c.controller}:${c.action}`);
  return target;
}

export function restTransport(server: TestServer): Transport {
  return {
    name: 'REST',
    async call(c) {
      const { method, path } = restTarget(c);
      const query = new URLSearchParams();
      for (const [k, v] of Object.entries(c.args ?? {})) query.set(k, String(v));
      // REST carries a create's _id in the query string (the path has no place for it).
      if ((c.action === 'create' || c.action === 'createApiKey') && c._id !== undefined) query.set('_id', c._id);
      const qs = query.toString();
      const headers: Record<string, string> = {};
      if (typeof c.requestId === 'string') headers['X-Request-Id'] = c.requestId;
      const res = await request(server, method, qs === '' ? path : `${path}?${qs}`, { token: c.token, body: c.body, headers });
      return { httpStatus: res.status, envelope: res.body, text: res.text, headers: res.headers };
    },
    close: async () => undefined,
  };
}

export async function socketTransport(server: TestServer): Promise<Transport> {
  const client = await SocketClient.connect(server);
  return {
    name: 'WebSocket',
    async call(c) {
      const message: Record<string, unknown> = { controller: c.controller, action: c.action, ...c.args };
      if (c.collection !== undefined) message.collection = c.collection;
      if (c._id !== undefined) message._id = c._id;
      if (c.body !== undefined) message.body = c.body;
      if (c.token !== undefined) message.jwt = c.token;
      if (typeof c.requestId === 'string') message.requestId = c.requestId;
      if (c.volatile !== undefined) message.volatile = c.volatile;
      const envelope = c.requestId === null ? await client.sendRaw(JSON.stringify(message)) : await client.send(message);
      return { httpStatus: null, envelope, text: JSON.stringify(envelope), headers: null };
    },
    close: () => client.close(),
  };
}

export type TransportName = Transport['name'];
export const TRANSPORTS: TransportName[] = ['REST', 'WebSocket'];

export function openTransport(name: TransportName, server: TestServer): Promise<Transport> {
  return name === 'REST' ? Promise.resolve(restTransport(server)) : socketTransport(server);
}

/**
 * The transport of one `describe.each(TRANSPORTS)` block: opened in the block's beforeAll (on the
 * server the file started, read then), closed in its afterAll. Its calls wait for the opening, so the
 * block declares it in one line: `const t = transportOf(name, () => server);`.
 */
export function transportOf(name: TransportName, server: () => TestServer): Transport {
  let opened: Promise<Transport> | undefined;
  const ready = (): Promise<Transport> => {
    if (opened === undefined) throw new Error('transportOf: a call came before the block\'s beforeAll');
    return opened;
  };
  beforeAll(async () => {
    opened = openTransport(name, server());
    await opened;
  });
  afterAll(async () => (await ready()).close());
  return { name, call: async (c) => (await ready()).call(c), close: async () => undefined };
}

/**
 * Writes entities through REST `_bulk` (as an admin unless a token is given) and fails the test
 * unless every one was written; answers the successes (`_id` and `_source` of each).
 */
export async function seedEntities(server: TestServer, plural: string, docs: unknown[], token?: string): Promise<{ _id: string; _source: any }[]> {
  const bulk = await request(server, 'POST', `/v4/entity/${plural}/_bulk`, {
    token: token ?? (await server.token({ sub: 'ada', tenantId: 'hq', roles: ['admin'] })),
    body: docs,
  });
  expect(bulk.status).toBe(200);
  expect(bulk.body.result.errors).toEqual([]);
  return bulk.body.result.successes;
}

/** Numeric codes of DESIGN.md's error table. */
export const ERROR_CODES: Record<string, number> = {
  'security.rights.unauthorized': 117637121,
  'security.token.invalid': 117506049,
  'security.token.expired': 117506054,
  'security.rights.forbidden': 117637122,
  'api.assert.missing_argument': 33619971,
  'api.assert.invalid_type': 33619969,
  'api.assert.invalid_argument': 33619970,
  'api.process.action_not_found': 33685509,
  'services.storage.not_found': 16842763,
  'services.storage.document_already_exists': 16842769,
  'services.storage.get_limit_exceeded': 16842755,
  'network.http.request_too_large': 50397185,
  'network.http.body_parse_failed': 50397196,
};

/** A failure: HTTP status (REST) = envelope status = error.status, and the error object's shape. */
export function expectError(answer: Pick<Answer, 'httpStatus' | 'envelope'>, id: string, status: number): void {
  const { envelope } = answer;
  expect(envelope).toBeDefined();
  expect({ id: envelope.error?.id, status: envelope.status }).toEqual({ id, status });
  if (answer.httpStatus !== null) expect(answer.httpStatus).toBe(status);
  expect(envelope.error).toEqual(
    expect.objectContaining({ id, status, code: expect.any(Number), message: expect.any(String) }),
  );
  expect(envelope.error.message.length).toBeGreaterThan(0);
  if (ERROR_CODES[id] !== undefined) expect(envelope.error.code).toBe(ERROR_CODES[id]);
  expect(envelope.result ?? null).toBeNull();
}

/** A success: HTTP 200 (REST), envelope status 200, error null. Returns the result. */
export function expectOk(answer: Pick<Answer, 'httpStatus' | 'envelope'>): any {
  const { envelope } = answer;
  expect(envelope).toBeDefined();
  // Shows the error object in the failure message when there is one.
  expect({ status: envelope.status, error: envelope.error }).toEqual({ status: 200, error: null });
  if (answer.httpStatus !== null) expect(answer.httpStatus).toBe(200);
  return envelope.result;
}

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
export const ISO_UTC_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/;

export const sha256Hex = (text: string): string => createHash('sha256').update(text).digest('hex');

const b64url = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');

/** An unsigned JWT: header {"alg":"none","typ":"JWT"}, the claims, and an empty signature. */
export function algNoneToken(claims: Record<string, unknown>): string {
  const now = Math.floor(Date.now() / 1000);
  return `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url({ iat: now, exp: now + 3600, ...claims })}.`;
}

/** A well-formed HS256 JWT signed with a secret the server does not know. */
export function foreignToken(claims: Record<string, unknown>): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode('a-completely-different-secret-of-enough-length-0123456789'));
}

/** Every file below a directory, as bytes. */
export function readAllFiles(dir: string): { path: string; bytes: Buffer }[] {
  const out: { path: string; bytes: Buffer }[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...readAllFiles(path));
    else out.push({ path, bytes: readFileSync(path) });
  }
  return out;
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** 25 countries: enough for three pages of ten; several share words so that ranking matters. */
export const COUNTRIES: { name: string; code: string }[] = [
  { name: 'France', code: 'FR' },
  { name: 'Germany', code: 'DE' },
  { name: 'Italy', code: 'IT' },
  { name: 'Spain', code: 'ES' },
  { name: 'Portugal', code: 'PT' },
  { name: 'South Africa', code: 'ZA' },
  { name: 'South Korea', code: 'KR' },
  { name: 'North Korea', code: 'KP' },
  { name: 'South Sudan', code: 'SS' },
  { name: 'Sudan', code: 'SD' },
  { name: 'New Zealand', code: 'NZ' },
  { name: 'Papua New Guinea', code: 'PG' },
  { name: 'Guinea', code: 'GN' },
  { name: 'Equatorial Guinea', code: 'GQ' },
  { name: 'United Kingdom', code: 'GB' },
  { name: 'United States', code: 'US' },
  { name: 'United Arab Emirates', code: 'AE' },
  { name: 'Japan', code: 'JP' },
  { name: 'China', code: 'CN' },
  { name: 'India', code: 'IN' },
  { name: 'Brazil', code: 'BR' },
  { name: 'Argentina', code: 'AR' },
  { name: 'Canada', code: 'CA' },
  { name: 'Mexico', code: 'MX' },
  { name: 'Norway', code: 'NO' },
];
