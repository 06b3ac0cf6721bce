/**
 * Property-based abuse of the real server (the same createGateway as `npm start`, small corpus),
 * over real HTTP (REST and GraphQL) and a real raw WebSocket: arbitrary JSON as search bodies,
 * query-DSL-shaped bodies (the engine's SUPPORTED_CLAUSES, unknown clauses, random parameters and
 * nesting), random bytes and mutated JSON text, deep nesting, entity writes (create, replace,
 * update, _bulk) with keys such as `__proto__`, and random raw WebSocket messages.
 *
 * After every input: no status 500 (and every error names a catalogue id), `GET /healthz` answers
 * 200, the raw WebSocket connection still answers `{"p":1}` with `{"p":2}`, nothing reached
 * Object.prototype, and an entity the server says it stored reads back exactly so.
 *
 * Deterministic by default (a fixed seed); FC_SEED, FC_RUNS (runs per property) and FC_PATH (with
 * the seed of a failure, replays its counterexample) override. A failure prints its seed and path.
 */
import fc from 'fast-check';
import { catalogue } from '../../src/core/errors';
import { SUPPORTED_CLAUSES } from '../../src/store/embedded/engine/query/parse';
import { SocketClient, startTestServer, type TestServer } from '../support/testServer';

const SEED = process.env.FC_SEED !== undefined ? Number(process.env.FC_SEED) : 20_260_125;
const RUNS = process.env.FC_RUNS !== undefined ? Number(process.env.FC_RUNS) : 200;
const CATALOGUE_IDS = new Set(Object.keys(catalogue));
const PROTOTYPE_NAMES = Object.getOwnPropertyNames(Object.prototype).sort();

let server: TestServer;
let admin: string;
let reader: string;
/** The connection whose survival is checked after every input (it sends nothing else). */
let watched: SocketClient;
/** The connection that receives the generated messages. */
let fuzzed: SocketClient;

jest.setTimeout(120_000);

beforeAll(async () => {
  server = await startTestServer();
  admin = await server.token({ sub: 'root', tenantId: 'acme', roles: ['admin'] });
  reader = await server.token({ sub: 'rita', tenantId: 'acme', roles: [] });
  watched = await SocketClient.connect(server);
  fuzzed = await SocketClient.connect(server);
  // a connection the server breaks is a failure of the property, not an unhandled error
  for (const client of [watched, fuzzed]) client.socket.on('error', () => undefined);
  // small, so that no pattern query can take long on any implementation
  const corpus = [
    { _id: 'fr', name: 'France', code: 'FR', population: 68, area: 551.7, founded: '1792-09-22', tags: ['eu', 'un'], nested: { level: 1, flag: true } },
    { _id: 'de', name: 'Germany', code: 'DE', population: 84, area: 357.6, founded: '1949-05-23', tags: ['eu'], nested: { level: 2, flag: false } },
    { _id: 'za', name: 'South Africa', code: 'ZA', population: 62, area: 1221, founded: '1910-05-31', tags: ['un'], nested: { level: 3 } },
    { _id: 'kr', name: 'South Korea', code: 'KR', population: 51, area: 100.2, founded: '1948-08-15', tags: [], nested: null },
    { _id: 'nz', name: 'New Zealand', code: 'NZ', population: 5, area: 268, founded: '1907-09-26', tags: ['un', 'commonwealth'] },
    { _id: 'jp', name: 'Japan', code: 'JP', population: 124, area: 377.9, founded: '1947-05-03', tags: ['un'], nested: { level: 1 } },
  ];
  for (const { _id, ...body } of corpus) {
    const res = await http('POST', `/v4/entity/countries?_id=${_id}`, JSON.stringify({ ...body, allowTenantIds: ['*'] }));
    expect(res.status).toBe(200);
  }
});

afterAll(async () => {
  await fuzzed.close();
  await watched.close();
  await server.stop();
});

// ---------------------------------------------------------------------------------------------
// transports

interface HttpAnswer {
  status: number;
  body: any;
  text: string;
}

async function http(method: string, path: string, body?: string | Uint8Array, headers: Record<string, string> = {}, token: string | null = admin): Promise<HttpAnswer> {
  const all: Record<string, string> = { 'Content-Type': 'application/json', ...headers };
  if (token !== null) all.Authorization = `Bearer ${token}`;
  const res = await fetch(server.url + path, { method, headers: all, body: method === 'GET' || method === 'DELETE' ? undefined : body });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: res.status, body: parsed, text };
}

/** Sends a frame on the fuzzed connection and resolves with the next answer (notifications skipped). */
function sendFrame(data: string | Uint8Array, binary = false): Promise<any> {
  return new Promise((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      fuzzed.socket.off('message', listener);
      fuzzed.socket.off('close', closed);
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error('no answer within 10 s'));
    }, 10_000);
    const listener = (raw: Buffer) => {
      const message = JSON.parse(raw.toString());
      if (message.type !== undefined) return; // a realtime notification of a subscription made by an earlier input
      done();
      resolve(message);
    };
    const closed = (code: number, reason: Buffer) => {
      done();
      reject(new Error(`the server closed the raw WebSocket connection (${code} ${reason.toString()})`));
    };
    if (fuzzed.socket.readyState !== fuzzed.socket.OPEN) return reject(new Error('the raw WebSocket connection is closed'));
    fuzzed.socket.on('message', listener);
    fuzzed.socket.on('close', closed);
    fuzzed.socket.send(typeof data === 'string' ? data : Buffer.from(data), { binary });
  });
}

// ---------------------------------------------------------------------------------------------
// what must hold after every input

/** A failed expectation, naming the input (shortened) and what came back. */
function broken(what: string, detail: string): never {
  throw new Error(`${detail}\n  input: ${what.length > 600 ? `${what.slice(0, 600)}… (${what.length} characters)` : what}`);
}

/** An envelope (REST or raw WebSocket): no 5xx, an error names a catalogue id, HTTP status = envelope status. */
function expectEnvelope(envelope: any, httpStatus: number | null, what: string): void {
  if (httpStatus !== null && httpStatus >= 500) broken(what, `HTTP status ${httpStatus}: ${JSON.stringify(envelope)}`);
  if (typeof envelope !== 'object' || envelope === null) broken(what, `no envelope (HTTP ${httpStatus})`);
  if (envelope.p === 2) return; // a heartbeat answered
  if (typeof envelope.status !== 'number' || envelope.status >= 500) broken(what, `status ${envelope.status}: ${JSON.stringify(envelope.error)}`);
  if (httpStatus !== null && envelope.status !== httpStatus) broken(what, `HTTP status ${httpStatus} but envelope status ${envelope.status}`);
  if (envelope.status !== 200 && !CATALOGUE_IDS.has(envelope.error?.id)) broken(what, `error without a catalogue id: ${JSON.stringify(envelope.error)}`);
}

/** A GraphQL answer over HTTP: no 5xx, no masked internal error, every error coded with a status below 500. */
function expectGraphQL(answer: HttpAnswer, what: string): void {
  if (answer.status >= 500) broken(what, `HTTP status ${answer.status}: ${answer.text.slice(0, 500)}`);
  for (const error of answer.body?.errors ?? []) {
    const code = error.extensions?.code;
    if (typeof code !== 'string' || code === 'core.fatal.unexpected_error' || code === 'INTERNAL_SERVER_ERROR') broken(what, `GraphQL error ${JSON.stringify(error)}`);
    if (typeof error.extensions?.status === 'number' && error.extensions.status >= 500) broken(what, `GraphQL error ${JSON.stringify(error)}`);
  }
}

async function expectAlive(): Promise<void> {
  const health = await fetch(`${server.url}/healthz`);
  await health.text();
  if (health.status !== 200) throw new Error(`GET /healthz answered ${health.status}`);
  if (fuzzed.socket.readyState !== fuzzed.socket.OPEN) throw new Error('the raw WebSocket connection that received the input is closed');
  const pong = await watched.sendRaw('{"p":1}');
  if (JSON.stringify(pong) !== '{"p":2}') throw new Error(`the watched WebSocket answered ${JSON.stringify(pong)} to {"p":1}`);
  if (({} as Record<string, unknown>).polluted !== undefined) throw new Error('Object.prototype.polluted is set');
  if (JSON.stringify(Object.getOwnPropertyNames(Object.prototype).sort()) !== JSON.stringify(PROTOTYPE_NAMES)) throw new Error('Object.prototype changed');
}

/** Runs a property with the seed and run count, and says how to replay a failure. */
async function check<T>(name: string, arbitrary: fc.Arbitrary<T>, predicate: (value: T) => Promise<void>, runs = RUNS): Promise<void> {
  const path = process.env.FC_PATH;
  try {
    await fc.assert(
      fc.asyncProperty(arbitrary, async (value) => {
        await predicate(value);
        await expectAlive();
      }),
      { seed: SEED, numRuns: runs, endOnFailure: true, ...(path !== undefined ? { path } : {}) },
    );
  } catch (err) {
    const replay = /seed: (-?\d+), path: "([^"]*)"/.exec(String((err as Error).message));
    console.error(`${name} failed. Replay: FC_SEED=${replay?.[1] ?? SEED} FC_PATH=${replay?.[2] ?? '?'} npx jest test/e2e/abuse.property.test.ts -t '${name}'`);
    throw err;
  }
}

// ---------------------------------------------------------------------------------------------
// generators

/** Characters that trouble parsers, encoders and escapers, beside any code point. */
const nastyChar = fc.oneof(
  { weight: 1, arbitrary: fc.constantFrom('\ud800', '\udfff', '\u0000', '\u2028', '\ufeff', '\ufffd', '"', '\\', '{', '[', '.', '*', '?', '\n', 'é', '🙂') },
  { weight: 3, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
);
const nastyString = fc.string({ unit: nastyChar, maxLength: 8 });
/** graphql-jit 0.8 turned this string, in a GraphQL literal, into code (`new Date(0+(…))`) that the server ran. */
const JIT_MARKER = '__MAGIC_DATE__33a9e76d_02e0_4128_8e92_3530ad3da74d0+(Object.prototype.polluted=1)';
const shortWord = fc.oneof(fc.constantFrom('france', 'south', 'korea', 'eu', 'un', 'FR', 'fr*', '*a*', 'so?th', 'Fr', 'new zealand', JIT_MARKER), fc.string({ maxLength: 6 }));

const nastyKey = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', '', ' ', '.', 'a.', '.a', 'a..b', 'a.b', '_id', '_source', 'slug', 'allowTenantIds', 'name', 'code', 'id', 'entityType', 'modified', '_service_info', 'query', 'script', 'bool', 'match') },
  { weight: 2, arbitrary: fc.string({ maxLength: 8 }) },
  { weight: 1, arbitrary: nastyString },
);

const nastyNumber = fc.constantFrom(0, -0, 1, -1, 0.5, 2 ** 31, 2 ** 53, 2 ** 53 + 2, -(2 ** 53) - 2, 1e21, 1e308, -1e308, 5e-324, 1e-7, Number.MAX_SAFE_INTEGER, 10_000, 9_999, 10_001);
const scalar = fc.oneof(
  fc.boolean(),
  fc.constant(null),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  nastyNumber,
  shortWord,
  nastyString,
);

/** Objects are built with own properties, `__proto__` included (JSON.stringify writes them). */
const ownObject = (entries: [string, unknown][]): Record<string, unknown> => {
  const out: Record<string, unknown> = {};
  for (const [k, v] of entries) Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
  return out;
};

const { json } = fc.letrec<{ json: unknown; array: unknown[]; object: Record<string, unknown> }>((tie) => ({
  json: fc.oneof({ depthSize: 'small', withCrossShrink: true }, scalar, tie('array'), tie('object')),
  array: fc.array(tie('json'), { maxLength: 4 }),
  object: fc.array(fc.tuple(nastyKey, tie('json')), { maxLength: 4 }).map(ownObject),
}));
const jsonObject = fc.array(fc.tuple(nastyKey, json), { maxLength: 6 }).map(ownObject);

const field = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('name', 'name.keyword', 'code', 'slug', 'id', 'entityType', 'modified', 'allowTenantIds', 'population', 'area', 'founded', 'tags', 'nested', 'nested.level', 'nested.flag', 'nested.*', '*', 'na*', '_id', '_score', '_doc', '__proto__', 'constructor', '__proto__.polluted', '', 'unknown') },
  { weight: 1, arbitrary: nastyString },
);
const paramName = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('query', 'value', 'values', 'boost', 'operator', 'minimum_should_match', 'fuzziness', 'analyzer', 'gte', 'gt', 'lte', 'lt', 'from', 'to', 'format', 'time_zone', 'relation', 'case_insensitive', 'rewrite', 'field', 'fields', 'type', 'tie_breaker', 'slop', 'zero_terms_query', 'lenient', '_name', 'prefix_length', 'max_expansions', 'include_upper', 'order', 'missing', 'mode', 'unmapped_type', 'script', '__proto__') },
  { weight: 1, arbitrary: nastyString },
);
const paramValue = fc.oneof(
  { weight: 4, arbitrary: scalar },
  { weight: 2, arbitrary: fc.constantFrom('and', 'or', 'AUTO', 'AUTO:3,6', '2<75%', '-1', '100%', '-25%', 'now', 'now-1d/d', '2020||+1M', 'yyyy-MM-dd', 'epoch_millis', '+01:00', 'Europe/Paris', 'standard', 'whitespace', 'best_fields', 'most_fields', 'cross_fields', 'phrase', 'phrase_prefix', 'bool_prefix', 'constant_score', 'top_terms_10', 'intersects', 'within', 'all', 'none', 'asc', 'desc', '_last', '_first', 'min', 'max', 'avg', 'long', '1s', '0ms', '-1', '10m', 'fr*', '*', '?', '\\', 'a*b?c', '[', '1979-01-01', '19790101', 'NaN') },
  { weight: 1, arbitrary: fc.array(fc.oneof(scalar, field), { maxLength: 4 }) },
  { weight: 1, arbitrary: json },
);
const params = fc.array(fc.tuple(paramName, paramValue), { maxLength: 3 }).map(ownObject);
const LEAVES = SUPPORTED_CLAUSES.filter((c) => !['bool', 'dis_max', 'constant_score'].includes(c));
/**
 * Clause names thrown with free-form bodies (any params or JSON): some are supported clauses whose
 * generators below would not reach these shapes, some are unknown or not clause names at all.
 */
const FREE_FORM_CLAUSES = ['fuzzy', 'regexp', 'query_string', 'simple_query_string', 'nested', 'script', 'script_score', 'function_score', 'more_like_this', '__proto__', 'constructor', '', 'Match', 'match_all ', 'terms_set'];

const { clause } = fc.letrec<{ clause: unknown; clauses: unknown }>((tie) => ({
  clause: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    // a leaf clause: {name: {field: value}}, {name: {field: {params}}}, {name: {params}} or anything
    {
      weight: 6,
      arbitrary: fc
        .tuple(fc.constantFrom(...LEAVES), field, fc.oneof(paramValue, params), params, fc.nat(9))
        .map(([name, f, value, ps, shape]) => ({ [name]: shape < 5 ? ownObject([[f, value]]) : shape < 8 ? { ...ps, field: f } : value })),
    },
    {
      weight: 2,
      arbitrary: fc
        .record({ must: tie('clauses'), should: tie('clauses'), filter: tie('clauses'), must_not: tie('clauses'), minimum_should_match: paramValue, boost: paramValue }, { requiredKeys: [] })
        .map((bool) => ({ bool })),
    },
    { weight: 1, arbitrary: fc.record({ queries: tie('clauses'), tie_breaker: paramValue }, { requiredKeys: [] }).map((disMax) => ({ dis_max: disMax })) },
    { weight: 1, arbitrary: fc.record({ filter: tie('clause'), boost: paramValue }, { requiredKeys: [] }).map((c) => ({ constant_score: c })) },
    { weight: 1, arbitrary: fc.tuple(fc.oneof(fc.constantFrom(...FREE_FORM_CLAUSES), nastyKey), fc.oneof(params, json)).map(([name, body]) => ownObject([[name, body]])) },
    { weight: 1, arbitrary: json },
  ),
  clauses: fc.oneof(tie('clause'), fc.array(tie('clause'), { maxLength: 3 })),
}));

/** A JSON value as a GraphQL literal (keys that are no GraphQL name renamed; strings as JSON writes them). */
function graphqlLiteral(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(graphqlLiteral).join(', ')}]`;
  if (typeof value === 'object' && value !== null) {
    const fields = Object.entries(value).map(([k, v], i) => `${/^[_A-Za-z][_0-9A-Za-z]*$/.test(k) ? k : `k${i}`}: ${graphqlLiteral(v)}`);
    return `{${fields.join(', ')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Well-formed clauses of the corpus' fields, so that searches run in the engine (beside the noisy ones above). */
const word = fc.constantFrom('france', 'south', 'korea', 'africa', 'new', 'zealand', 'japan', 'germany', 'eu', 'un', 'Fr', 'SOUTH', JIT_MARKER);
const textField = fc.constantFrom('name', 'tags', 'code');
const keywordField = fc.constantFrom('name.keyword', 'code.keyword', 'tags.keyword', 'id', 'slug', 'allowTenantIds', 'entityType');
const numberField = fc.constantFrom('population', 'area', 'nested.level');
const anyField = fc.oneof(textField, keywordField, numberField, fc.constantFrom('founded', 'modified', 'nested.flag', 'missing', '__proto__'));
const pattern = fc.constantFrom('fr*', '*a*', 'so?th*', 'F?', '*', '?', 'ja*n', 'n*w', '*z*a*');
const leafClause = (name: string): fc.Arbitrary<unknown> => {
  switch (name) {
    case 'match_all':
    case 'match_none':
      return fc.oneof(fc.constant({}), fc.record({ boost: fc.double({ min: 0, max: 5, noNaN: true }) }));
    case 'match':
      return fc.oneof(
        fc.tuple(textField, word).map(([f, w]) => ({ [f]: w })),
        fc.tuple(textField, fc.record({ query: fc.array(word, { minLength: 1, maxLength: 3 }).map((w) => w.join(' ')), operator: fc.constantFrom('and', 'or'), minimum_should_match: fc.constantFrom(1, '50%', '-1', '2<75%') }, { requiredKeys: ['query'] })).map(([f, p]) => ({ [f]: p })),
      );
    case 'match_phrase':
      return fc.tuple(textField, fc.constantFrom('south africa', 'new zealand', 'south', 'korea south'), fc.nat(3)).map(([f, q, slop]) => ({ [f]: { query: q, slop } }));
    case 'multi_match':
      return fc.record({ query: word, fields: fc.array(fc.constantFrom('name', 'code^2', 'tags', 'na*', '*'), { minLength: 1, maxLength: 3 }), type: fc.constantFrom('best_fields', 'most_fields', 'cross_fields', 'phrase'), tie_breaker: fc.constantFrom(0, 0.3, 1) }, { requiredKeys: ['query'] });
    case 'term':
      return fc.oneof(fc.tuple(keywordField, fc.constantFrom('France', 'FR', 'fr', 'eu', '*')).map(([f, v]) => ({ [f]: v })), fc.tuple(numberField, fc.integer({ min: 0, max: 200 })).map(([f, v]) => ({ [f]: { value: v, boost: 2 } })));
    case 'terms':
      return fc.tuple(keywordField, fc.array(fc.constantFrom('France', 'FR', 'DE', 'fr', 'un', 'eu', 'x'), { maxLength: 5 })).map(([f, v]) => ({ [f]: v }));
    case 'range':
      return fc.oneof(
        fc.tuple(numberField, fc.record({ gte: fc.integer({ min: -10, max: 200 }), lt: fc.integer({ min: -10, max: 2000 }), boost: fc.constant(1.5) }, { requiredKeys: [] })).map(([f, r]) => ({ [f]: r })),
        fc.record({ gte: fc.constantFrom('1900-01-01', 'now-200y', '1948', '1947-05-03||+1M'), lte: fc.constantFrom('now', '2000-01-01', 'now/d'), format: fc.constantFrom('yyyy-MM-dd', 'strict_date_optional_time'), time_zone: fc.constantFrom('+01:00', 'Europe/Paris') }, { requiredKeys: [] }).map((r) => ({ founded: r })),
      );
    case 'exists':
      return anyField.map((f) => ({ field: f }));
    case 'ids':
      return fc.array(fc.constantFrom(...ID_POOL, 'jp', 'nz', 'kr'), { maxLength: 4 }).map((values) => ({ values }));
    case 'prefix':
      return fc.tuple(fc.oneof(textField, keywordField), fc.constantFrom('fr', 'F', 'so', 'n', 'Ja', ''), fc.boolean()).map(([f, v, ci]) => ({ [f]: { value: v, case_insensitive: ci } }));
    case 'wildcard':
      return fc.tuple(fc.oneof(textField, keywordField), pattern, fc.boolean()).map(([f, v, ci]) => ({ [f]: { value: v, case_insensitive: ci } }));
    case 'regexp':
      return fc.tuple(fc.oneof(textField, keywordField), fc.constantFrom('fr.*', '.*a.*', 's[ou]+th', 'F.', '(ja|ge).*', '[a-z]{2,5}', 'n.w|z.*'), fc.boolean()).map(([f, v, ci]) => ({ [f]: { value: v, case_insensitive: ci } }));
    default:
      return fc.tuple(anyField, fc.oneof(word, pattern, params)).map(([f, v]) => ({ [f]: v }));
  }
};
const { validClause } = fc.letrec<{ validClause: unknown; validClauses: unknown }>((tie) => ({
  validClause: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 5, arbitrary: fc.constantFrom(...LEAVES).chain((name) => leafClause(name).map((body) => ({ [name]: body }))) },
    {
      weight: 2,
      arbitrary: fc
        .record({ must: tie('validClauses'), should: tie('validClauses'), filter: tie('validClauses'), must_not: tie('validClauses'), minimum_should_match: fc.constantFrom(0, 1, '50%') }, { requiredKeys: [] })
        .map((bool) => ({ bool })),
    },
    { weight: 1, arbitrary: fc.record({ queries: fc.array(tie('validClause'), { minLength: 1, maxLength: 3 }), tie_breaker: fc.constantFrom(0, 0.7) }, { requiredKeys: ['queries'] }).map((d) => ({ dis_max: d })) },
    { weight: 1, arbitrary: fc.record({ filter: tie('validClause'), boost: fc.constantFrom(1, 2.5) }, { requiredKeys: ['filter'] }).map((c) => ({ constant_score: c })) },
  ),
  validClauses: fc.oneof(tie('validClause'), fc.array(tie('validClause'), { maxLength: 3 })),
}));
const validSort = fc.array(
  fc.oneof(fc.constantFrom('_score', 'population', { population: 'desc' }, { 'name.keyword': { order: 'asc' } }, { founded: { order: 'desc', missing: '_first' } }, { area: { order: 'asc', mode: 'max' } }, { missing: { unmapped_type: 'long' } }, '_doc')),
  { minLength: 1, maxLength: 3 },
);
const validBody = fc.record(
  { query: validClause, sort: validSort, from: fc.nat(8), size: fc.nat(12), _source: fc.oneof(fc.boolean(), fc.constantFrom(['name'], ['na*', 'code'], { excludes: ['nested*'] })), track_total_hits: fc.boolean() },
  { requiredKeys: [] },
);

const intish = fc.oneof(fc.nat(30), fc.integer(), nastyNumber, fc.double(), fc.constantFrom('5', '-1', 'abc', '', ' 3 ', '1e3', '0x10', '10000'), fc.constant(null));
const sortClause = fc.oneof(
  field,
  fc.tuple(field, fc.oneof(fc.constantFrom('asc', 'desc', 'ASC', 'sideways'), params)).map(([f, o]) => ownObject([[f, o]])),
  json,
);
const noisyBody = fc
  .record(
    {
      query: fc.oneof({ weight: 5, arbitrary: clause }, { weight: 1, arbitrary: json }),
      sort: fc.oneof(sortClause, fc.array(sortClause, { maxLength: 3 })),
      from: intish,
      size: intish,
      _source: fc.oneof(fc.boolean(), field, fc.array(field, { maxLength: 3 }), fc.record({ includes: fc.array(field, { maxLength: 2 }), excludes: fc.array(field, { maxLength: 2 }) }, { requiredKeys: [] }), json),
      search_after: fc.oneof(fc.array(scalar, { maxLength: 3 }), json),
      track_total_hits: fc.oneof(fc.boolean(), intish),
      timeout: fc.oneof(fc.constantFrom('1s', '50ms', '0', '-1', '1d', 'soon', '99999999999999999999s'), intish),
      extra: json,
    },
    { requiredKeys: [] },
  )
  .chain((body) =>
    fc.boolean().map((keepExtra) => {
      if (!keepExtra) delete (body as Record<string, unknown>).extra;
      return body;
    }),
  );

/** Well-formed bodies (the engine runs them) as often as noisy ones (some part refused). */
const searchBody = fc.oneof(validBody, noisyBody);

/** JSON text, mutated into what JSON.stringify never writes. */
const mutatedText = fc
  .tuple(fc.oneof(searchBody.map((b) => JSON.stringify(b)), json.map((j) => JSON.stringify(j) ?? 'null')), fc.nat(), fc.constantFrom('1e999', '-1e999', '1e-999', 'NaN', 'Infinity', '-Infinity', '9007199254740993', '0x10', '01', '1.', '.5', '+1', '"\\ud800"', '"\\x41"', '\u0000', '[', '}', '{"a":1,"a":2}', '//', '\ufeff'), fc.nat(3))
  .map(([text, at, insert, how]) => {
    const i = text.length === 0 ? 0 : at % text.length;
    if (how === 0) return text.slice(0, i) + insert + text.slice(i);
    if (how === 1) return text.replace(/-?\d+(\.\d+)?([eE][+-]?\d+)?/, insert);
    if (how === 2) return text.slice(0, i); // cut short
    return insert + text;
  });

const bytes = fc.oneof(
  fc.uint8Array({ maxLength: 300 }),
  fc.tuple(fc.constantFrom('{"query":{"match":{"name":"', '{"name":"', '{"controller":"document","action":"search","body":{"query":"'), fc.uint8Array({ minLength: 1, maxLength: 20 })).map(([head, tail]) => Buffer.concat([Buffer.from(head), Buffer.from(tail), Buffer.from('"}}}')])),
);

/** JSON nested `depth` levels, of a few shapes. */
const deep = fc.tuple(fc.integer({ min: 900, max: 5000 }), fc.constantFrom('array', 'object', 'bool', 'mixed')).map(([depth, shape]) => {
  if (shape === 'array') return '['.repeat(depth) + ']'.repeat(depth);
  if (shape === 'object') return '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
  if (shape === 'bool') return '{"bool":{"must":['.repeat(Math.ceil(depth / 3)) + '{"match_all":{}}' + ']}}'.repeat(Math.ceil(depth / 3));
  return '[{"a":'.repeat(Math.ceil(depth / 2)) + 'null' + '}]'.repeat(Math.ceil(depth / 2));
});

/** Percent-encoding of any string (encodeURIComponent throws on a lone surrogate; its UTF-8 has U+FFFD there). */
const pct = (text: string) => Array.from(Buffer.from(text, 'utf8'), (b) => `%${b.toString(16).padStart(2, '0')}`).join('');

/** An entity's fields other than those the server manages or normalizes, in order, as JSON. */
const SERVER_FIELDS = new Set(['_service_info', 'entityType', 'id', 'modified', 'modifier', '_id', 'slug', 'allowTenantIds']);
const clientPart = (source: unknown) => JSON.stringify(Object.entries(source as object).filter(([key]) => !SERVER_FIELDS.has(key)));

const ID_POOL = ['fr', 'de', 'za', 'w1', 'w2', 'w3', '__proto__', 'constructor'];
const entityBody = fc.oneof({ weight: 5, arbitrary: jsonObject }, { weight: 1, arbitrary: json });

// ---------------------------------------------------------------------------------------------
// the properties

/** REST and raw WebSocket searches of one body, given as text. */
async function searchBoth(bodyText: string, collection: string, what: string): Promise<void> {
  const rest = await http('POST', `/v4/entity/${collection}/search`, bodyText);
  expectEnvelope(rest.body, rest.status, `REST ${what}`);
  const ws = await sendFrame(`{"controller":"document","action":"search","collection":${JSON.stringify(collection)},"jwt":"${admin}","body":${bodyText}}`);
  expectEnvelope(ws, null, `WebSocket ${what}`);
}

describe('abuse of the real server, property-based', () => {
  it('arbitrary JSON values as search and count bodies', async () => {
    await check('arbitrary JSON values', json, async (value) => {
      const text = JSON.stringify(value) ?? 'null';
      await searchBoth(text, 'countries', text);
      const count = await http('POST', '/v4/entity/countries/count', text);
      expectEnvelope(count.body, count.status, `count ${text}`);
    });
  });

  it('query-DSL-shaped bodies (supported and unknown clauses, random parameters and nesting)', async () => {
    await check(
      'query DSL bodies',
      fc.tuple(searchBody, fc.constantFrom('countries', 'things')),
      async ([body, collection]) => {
        const text = JSON.stringify(body);
        await searchBoth(text, collection, text);
        const keys = await http('POST', '/v4/api-keys/_search', text, {}, reader);
        expectEnvelope(keys.body, keys.status, `api-keys ${text}`);
        const query = (body as { query?: unknown }).query;
        const count = await http('POST', `/v4/entity/${collection}/count`, JSON.stringify(query === undefined ? {} : { query }));
        expectEnvelope(count.body, count.status, `count ${text}`);
        // the same over GraphQL, as variables
        const gql = await http('POST', '/graphql', JSON.stringify({ query: 'query($q: JSON, $s: JSON) { search(type: "countries", query: $q, sort: $s) { total hits { id } } }', variables: { q: query ?? null, s: (body as { sort?: unknown }).sort ?? null } }));
        expectGraphQL(gql, `GraphQL ${text}`);
        // and as a literal in the document (executed by graphql-jit when it can be)
        const literal = `{ search(type: "countries", query: ${graphqlLiteral(query ?? null)}) { total hits { id score } } }`;
        expectGraphQL(await http('POST', '/graphql', JSON.stringify({ query: literal })), `GraphQL ${literal}`);
      },
      RUNS * 2,
    );
  });

  it('random bytes and mutated JSON text as bodies and messages', async () => {
    await check('random bytes', fc.oneof(bytes, mutatedText.map((t) => Buffer.from(t, 'utf8'))), async (payload) => {
      const what = Buffer.from(payload).toString('base64');
      for (const path of ['/v4/entity/countries/search', '/v4/entity/countries', '/v4/entity/countries/_bulk', '/v4/api-keys/_create']) {
        const res = await http('POST', path, payload);
        expectEnvelope(res.body, res.status, `${path} ${what}`);
      }
      const gql = await http('POST', '/graphql', payload);
      expectGraphQL(gql, `GraphQL ${what}`);
      expectEnvelope(await sendFrame(payload), null, `text frame ${what}`);
      expectEnvelope(await sendFrame(payload, true), null, `binary frame ${what}`);
    });
  });

  it('deep nesting, wherever a value goes', async () => {
    await check(
      'deep nesting',
      fc.tuple(deep, fc.constantFrom('query', 'sort', 'body', 'entity', 'volatile', 'graphql-variable', 'graphql-literal')),
      async ([nested, where]) => {
        const what = `${where} ${nested.length} chars`;
        if (where === 'query' || where === 'sort') {
          await searchBoth(`{"${where}":${nested}}`, 'countries', what);
        } else if (where === 'body') {
          await searchBoth(nested, 'countries', what);
        } else if (where === 'entity') {
          const res = await http('POST', '/v4/entity/things', `{"deep":${nested}}`);
          expectEnvelope(res.body, res.status, what);
          expectEnvelope(await sendFrame(`{"controller":"document","action":"update","collection":"countries","_id":"fr","jwt":"${admin}","body":{"deep":${nested}}}`), null, what);
        } else if (where === 'volatile') {
          expectEnvelope(await sendFrame(`{"controller":"auth","action":"checkToken","body":{"token":"x"},"volatile":${nested}}`), null, what);
        } else if (where === 'graphql-variable') {
          expectGraphQL(await http('POST', '/graphql', `{"query":"query($q: JSON) { search(type: \\"countries\\", query: $q) { total } }","variables":{"q":${nested}}}`), what);
        } else {
          const literal = nested.replace(/"(\w+)":/g, '$1:');
          expectGraphQL(await http('POST', '/graphql', JSON.stringify({ query: `{ search(type: "countries", query: ${literal}) { total } }` })), what);
        }
      },
      Math.max(10, Math.round(RUNS / 2)),
    );
  });

  it('entity writes (create, replace, update, _bulk) read back as the server says it stored them', async () => {
    const write = fc.record({
      op: fc.constantFrom('create', 'replace', 'update', 'bulk', 'bulk-kuzzle'),
      id: fc.oneof(fc.constantFrom(...ID_POOL), nastyString),
      body: entityBody,
      bodies: fc.array(fc.record({ _id: fc.option(fc.constantFrom(...ID_POOL, 'b1', 'b2'), { nil: undefined }), body: entityBody }, { requiredKeys: ['body'] }), { maxLength: 4 }),
      via: fc.constantFrom('REST', 'WebSocket'),
    });
    const written = { tried: 0, ok: 0 };
    await check('entity writes', write, async ({ op, id, body, bodies, via }) => {
      const what = `${via} ${op} ${JSON.stringify(id)} ${JSON.stringify(op.startsWith('bulk') ? bodies : body)}`;
      let envelope: any;
      if (via === 'REST') {
        const path = `/v4/entity/countries${op === 'create' ? `?_id=${pct(id)}` : op.startsWith('bulk') ? '/_bulk' : `/${pct(id)}`}`;
        const method = { create: 'POST', replace: 'PUT', update: 'PATCH', bulk: 'POST', 'bulk-kuzzle': 'POST' }[op];
        const text = op === 'bulk' ? JSON.stringify(bodies.map((b) => b.body)) : op === 'bulk-kuzzle' ? JSON.stringify({ documents: bodies }) : JSON.stringify(body);
        const res = await http(method, path, text);
        expectEnvelope(res.body, res.status, what);
        envelope = res.body;
      } else {
        const action = { create: 'create', replace: 'replace', update: 'update', bulk: 'mCreate', 'bulk-kuzzle': 'mCreate' }[op];
        const payload = op.startsWith('bulk') ? { documents: bodies } : body;
        envelope = await sendFrame(`{"controller":"document","action":"${action}","collection":"countries","_id":${JSON.stringify(id)},"jwt":"${admin}","body":${JSON.stringify(payload)}}`);
        expectEnvelope(envelope, null, what);
      }
      written.tried++;
      if (envelope.status !== 200) return;
      written.ok++;
      const stored: { _id: string; _source: unknown }[] = op.startsWith('bulk') ? envelope.result.successes : [envelope.result];
      for (const entity of stored) {
        const read = await http('GET', `/v4/entity/countries/${pct(entity._id)}`);
        expectEnvelope(read.body, read.status, `read back ${what}`);
        const [said, shown] = [JSON.stringify(entity._source), JSON.stringify(read.body.result._source)];
        if (said !== shown) broken(what, `the server said it stored\n  ${said}\nbut a read shows\n  ${shown}`);
      }
      // create and replace store the client's fields as sent (beside the managed ones, slug and allowTenantIds)
      if (op === 'create' || op === 'replace') {
        const [sent, kept] = [clientPart(body), clientPart(stored[0]._source)];
        if (sent !== kept) broken(what, `the client sent the fields\n  ${sent}\nbut the server stored\n  ${kept}`);
      }
    });
    // (the read-back check is exercised: about 40% of the generated writes are stored)
    if (written.tried >= 50) expect(written.ok * 5).toBeGreaterThan(written.tried);
  });

  it('random raw WebSocket messages (random controller, action and fields)', async () => {
    const message = fc
      .record(
        {
          controller: fc.oneof(fc.constantFrom('document', 'auth', 'realtime', 'server', 'collection', 'admin', '', '__proto__'), nastyString, json),
          action: fc.oneof(fc.constantFrom('search', 'count', 'create', 'get', 'replace', 'update', 'delete', 'mCreate', 'createApiKey', 'searchApiKeys', 'deleteApiKey', 'checkToken', 'subscribe', 'unsubscribe', 'now', 'constructor', ''), nastyString, json),
          index: fc.oneof(fc.constant('entity'), nastyString, json),
          collection: fc.oneof(fc.constantFrom('countries', 'things', 'business-units', 'country', 'Countries!', '__proto__', ''), nastyString, json),
          _id: fc.oneof(fc.constantFrom(...ID_POOL), nastyString, json),
          body: fc.oneof(searchBody, entityBody, json),
          jwt: fc.oneof({ weight: 4, arbitrary: fc.constant(admin) }, { weight: 1, arbitrary: fc.oneof(fc.constant(reader), nastyString, json) }),
          requestId: fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.oneof(nastyString, json) }),
          volatile: json,
          from: intish,
          size: intish,
          expiresIn: fc.oneof(intish, fc.constantFrom('1h', '-1', '0', 'soon', '99999999999999999999d')),
          p: fc.oneof(fc.constant(1), json),
          extra: jsonObject,
        },
        { requiredKeys: ['controller', 'action'] },
      )
      .map(({ extra, ...fields }) => ownObject([...Object.entries(extra ?? {}), ...Object.entries(fields)]));
    await check('random WebSocket messages', message, async (msg) => {
      const text = JSON.stringify(msg);
      expectEnvelope(await sendFrame(text), null, text);
    });
  });
});
