/**
 * Every setting, read from the environment once (by the composition root), validated, with defaults.
 * A bad value stops the start with a message naming the variable.
 */
import { availableParallelism } from 'node:os';
import { z } from 'zod';
import { parseDuration } from './core/duration';
import { parseWindowPolicy, type WindowPolicy } from './rateLimit/policy';

const bytes = (fallback: number) =>
  z.coerce.number({ message: 'must be a number of bytes' }).int().positive().default(fallback);

const duration = z.string().transform((value, ctx) => {
  const parsed = parseDuration(value);
  if (parsed === undefined || parsed <= 0) {
    ctx.addIssue({ code: 'custom', message: `"${value}" is not a positive duration (e.g. 30d, 12h, 3600000)` });
    return z.NEVER;
  }
  return parsed;
});

/** Elasticsearch's search thread pool size for this machine's processors: int((processors * 3) / 2) + 1. */
export const defaultSearchConcurrency = Math.floor((availableParallelism() * 3) / 2) + 1;

const count = (min: number, max: number, fallback: number) => z.coerce.number().int().min(min).max(max).default(fallback);

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

/**
 * CORS_ORIGINS: `*` (any origin), `none`, or a comma-separated list of origins exactly as browsers
 * send them in `Origin` (scheme://host[:port], lowercase, no default port, no path or trailing
 * slash), since a listed origin is compared with the header as a string. Blank: the default.
 */
const ORIGIN = /^[a-z][a-z0-9+.-]*:\/\/[^/?#*\s]+$/;
const corsOrigins = optionalString.transform((value, ctx): '*' | string[] | undefined => {
  if (value === undefined || value === '*') return value;
  if (value === 'none') return [];
  const origins = value.split(',').map((o) => o.trim());
  for (const origin of origins) {
    const problem = originProblem(origin);
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
  }
  return [...new Set(origins)];
});

function originProblem(origin: string): string | undefined {
  if (origin === '*') return '"*" stands alone (any origin); it cannot be part of a list';
  if (origin === '') return 'an empty entry: write origins separated by single commas';
  if (origin.includes('*')) return `"${origin}": an origin cannot hold a wildcard; list each origin`;
  if (origin === 'null') return '"null" (sandboxed pages, file: URLs) cannot be allowed: any page can send it';
  let canonical: string | undefined;
  try {
    const url = new URL(origin);
    canonical = url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
  } catch {
    return `"${origin}" is not an origin (scheme://host[:port], e.g. https://app.example.com)`;
  }
  if (canonical !== undefined && canonical !== origin) return `"${origin}" is not written as browsers send it: write "${canonical}"`;
  if (!ORIGIN.test(origin)) return `"${origin}" is not an origin (scheme://host[:port], lowercase scheme, no path)`;
  return undefined;
}

/** WORKERS: a number of processes, or `auto`: one per core. */
const workers = optionalString.transform((value, ctx): number => {
  if (value === undefined) return 1;
  if (value === 'auto') return availableParallelism();
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 256) {
    ctx.addIssue({ code: 'custom', message: `"${value}" is neither a number of processes (1 to 256) nor "auto" (one per core)` });
    return z.NEVER;
  }
  return n;
});

/** RATE_LIMIT, RATE_LIMIT_AUTH_FAILURES: `<requests>/<window>` (`600/1m`) or `off`; blank: the default. */
const windowPolicy = (fallback: WindowPolicy | null) =>
  optionalString.transform((value, ctx): WindowPolicy | null => {
    if (value === undefined) return fallback;
    const parsed = parseWindowPolicy(value);
    if (parsed !== null && 'problem' in parsed) {
      ctx.addIssue({ code: 'custom', message: parsed.problem });
      return z.NEVER;
    }
    return parsed;
  });

/** TRUST_PROXY: how many proxies in front of the gateway append to X-Forwarded-For (0: the header is ignored). */
const trustProxy = optionalString.transform((value, ctx): number => {
  if (value === undefined || value === 'false') return 0;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n > 16) {
    ctx.addIssue({ code: 'custom', message: `"${value}" is not a number of proxies (0 to 16; 0 or false: X-Forwarded-For is not trusted)` });
    return z.NEVER;
  }
  return n;
});

const flag = z.enum(['true', 'false', '1', '0']).optional();
const flagValue = (v: string | undefined, fallback: boolean): boolean => (v === undefined ? fallback : v === 'true' || v === '1');

const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(7512),
  WORKERS: workers,
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  INDEX_NAME: z
    .string()
    .regex(/^[a-z0-9][a-z0-9_-]*$/, 'must be lowercase letters, digits, "-" or "_"')
    .default('entity'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_REQUESTS: flag,
  METRICS: z.enum(['public', 'admin', 'off']).optional(),
  AUTH_SECRET: optionalString.refine((v) => v === undefined || v.length >= 32, 'must be at least 32 characters'),
  AUTH_JWKS_URL: optionalString.refine((v) => v === undefined || /^https?:\/\//.test(v), 'must be an http(s) URL'),
  AUTH_ISSUER: optionalString,
  AUTH_AUDIENCE: optionalString,
  AUTH_TENANT_CLAIM: z.string().min(1).default('tenantId'),
  API_KEY_MAX_TTL: duration.optional(),
  API_KEY_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(5000),
  MAX_BODY_BYTES: bytes(1024 * 1024),
  // POST /v4/entity/<plural>/_bulk's own limit: Elasticsearch's http.max_content_length
  MAX_BULK_BYTES: bytes(100 * 1024 * 1024),
  MAX_MESSAGE_BYTES: bytes(1024 * 1024),
  SEARCH_CACHE_ENTRIES: z.coerce.number().int().min(0).max(1_000_000).default(1000),
  // embedded store: bulk writes of at least this many entities are committed by its commit thread ('off': never)
  COMMIT_THREAD_FROM: z.union([z.literal('off'), z.coerce.number().int().min(1).max(1_000_000)]).default(100),
  // the embedded store's index file (README "Index file"): quiet time before it is written; 0 = no index file
  INDEX_FILE_QUIET_MS: z.coerce.number().int().min(0).max(86_400_000).default(5000),
  // Elasticsearch's query limits (README "Limits"); the defaults are Elasticsearch's.
  // at most 2000: JSON.stringify itself overflows the stack at about 4,000 levels
  MAX_JSON_DEPTH: count(1, 2000, 1000),
  MAX_QUERY_DEPTH: count(1, 1000, 30),
  MAX_CLAUSE_COUNT: count(1, 1_000_000, 4096),
  MAX_TERMS_COUNT: count(1, 10_000_000, 65_536),
  MAX_REGEX_LENGTH: count(1, 1_000_000, 1000),
  MAX_DETERMINIZED_STATES: count(1, 10_000_000, 10_000),
  MAX_FIELDS: count(1, 100_000, 1000),
  MAX_BUCKETS: count(1, 2_147_483_647, 65_536),
  MAX_ANALYZED_OFFSET: count(1, 2_147_483_647, 1_000_000),
  SEARCH_TIMEOUT: duration.default(10_000),
  SEARCH_SLICE_MS: count(1, 1000, 1),
  SEARCH_CONCURRENCY: count(1, 10_000, defaultSearchConcurrency),
  SEARCH_QUEUE_SIZE: count(0, 1_000_000, 1000),
  DEMO_DATA: flag,
  GRAPHQL_INTROSPECTION: flag,
  // the console (README "Console"): on/off, or a flag's true/false/1/0
  CONSOLE: z.enum(['on', 'off', 'true', 'false', '1', '0']).optional(),
  GRAPHQL_LANDING_PAGE: flag,
  GRAPHQL_MAX_DEPTH: z.coerce.number().int().min(1).max(100).default(10),
  GRAPHQL_MAX_COST: z.coerce.number().int().min(1).default(5000),
  GRAPHQL_MAX_ALIASES: z.coerce.number().int().min(0).default(15),
  CORS_ORIGINS: corsOrigins,
  RATE_LIMIT: windowPolicy(null),
  RATE_LIMIT_AUTH_FAILURES: windowPolicy({ limit: 60, windowSeconds: 60 }),
  TRUST_PROXY: trustProxy,
  REDIS_URL: optionalString.refine((v) => v === undefined || /^rediss?:\/\/[^\s]+$/.test(v), 'must be a redis:// or rediss:// URL'),
  REDIS_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/, 'must be 1 to 100 letters, digits, "-", "_" or "."')
    .default('gateway'),
  // Elasticsearch store (DESIGN.md "Elasticsearch store"): set ELASTICSEARCH_URL to use it instead of the embedded store.
  ELASTICSEARCH_URL: optionalString.refine((v) => v === undefined || /^https?:\/\/[^\s]+$/.test(v), 'must be an http(s) URL (user:password@ allowed)'),
  ELASTICSEARCH_API_KEY: optionalString,
  ES_INDEX_PREFIX: z
    .string()
    .regex(/^[a-z0-9][a-z0-9_-]{0,99}$/, 'must be 1 to 100 lowercase letters, digits, "-" or "_", not starting with "-" or "_"')
    .default('gateway'),
  ES_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
  ES_MAX_RETRIES: z.coerce.number().int().min(0).max(10).default(3),
});

export interface Config {
  nodeEnv: 'development' | 'production' | 'test';
  port: number;
  /** Processes serving the port (node:cluster); 1: this process alone. */
  workers: number;
  host: string;
  dataDir: string;
  indexName: string;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** LOG_REQUESTS: one access log line per request, at info (README "Observability"). */
  logRequests: boolean;
  /** METRICS: GET /metrics for anyone (`public`), for admins only (`admin`), or not at all (`off`). */
  metrics: 'public' | 'admin' | 'off';
  auth: {
    secret?: string;
    jwksUrl?: string;
    issuer?: string;
    audience?: string;
    tenantClaim: string;
  };
  apiKeys: {
    /** Longest lifetime a key may ask for, in ms; undefined = no maximum (and -1, never expires, is allowed). */
    maxTtl?: number;
    /** How long a verified API key may be trusted without looking it up again, in ms. */
    cacheMs: number;
  };
  limits: {
    maxBodyBytes: number;
    /** Largest body of POST /v4/entity/<plural>/_bulk (JSON or NDJSON). */
    maxBulkBytes: number;
    maxMessageBytes: number;
    /** Deepest nesting of arrays and objects in a request's JSON (Jackson's default in Elasticsearch). */
    maxJsonDepth: number;
  };
  /** Query limits of the embedded engine (Elasticsearch's, with its defaults). */
  search: {
    /** Nesting depth of query clauses (indices.query.bool.max_nested_depth). */
    maxQueryDepth: number;
    /** Leaf clauses of a whole query, terms a pattern rewritten to a boolean query expands to included (indices.query.bool.max_clause_count). */
    maxClauseCount: number;
    /** Terms of one `terms` query (index.max_terms_count). */
    maxTermsCount: number;
    /** Length of a `regexp` pattern (index.max_regex_length). */
    maxRegexLength: number;
    /** Determinization effort of a pattern (max_determinized_states): the default of the query parameter and its ceiling. */
    maxDeterminizedStates: number;
    /** Fields one entity type may map, objects and sub-fields included (index.mapping.total_fields.limit). */
    maxFields: number;
    /** Buckets of all the multi-bucket aggregations of one search answer (search.max_buckets). */
    maxBuckets: number;
    /** Characters of a field the highlighter analyzes (index.highlight.max_analyzed_offset). */
    maxAnalyzedOffset: number;
    /** Time budget of a search without `timeout`, in ms. */
    timeoutMs: number;
    /** Longest a search keeps the event loop before letting other work run, in ms. */
    sliceMs: number;
    /** Searches past their first slice in progress at once, per process (thread_pool.search.size). */
    concurrency: number;
    /** Searches past their first slice that may wait for a place; past that a search is refused with 429 (thread_pool.search.queue_size). */
    queueSize: number;
  };
  /** Searches and counts the embedded store keeps until the next write to their collection; 0 = no cache. */
  searchCacheEntries: number;
  /** COMMIT_THREAD_FROM: bulk writes of at least this many entities are committed by the embedded store's commit thread (Infinity: never). */
  commitThreadFrom: number;
  /** The embedded store writes its index file once writes have been quiet this long (ms); 0 = no index file. */
  indexFileQuietMs: number;
  /** Load the demo countries at start when the store is empty (default: on in development). */
  demoData: boolean;
  /** CONSOLE: the console page at `/` and its assets (README "Console"); default on outside production. */
  console: boolean;
  graphql: {
    introspection: boolean;
    /** GRAPHQL_LANDING_PAGE: the GraphiQL IDE on GET /graphql in a browser (served by the console); default: CONSOLE. */
    landingPage: boolean;
    maxDepth: number;
    maxCost: number;
    maxAliases: number;
  };
  cors: {
    /** Origins whose browser pages may call the HTTP API: '*' any, [] none (same-origin pages only). */
    origins: '*' | readonly string[];
  };
  rateLimit: {
    /** RATE_LIMIT: requests per window per principal (API key, else user, else client address); null: off. */
    requests: WindowPolicy | null;
    /** RATE_LIMIT_AUTH_FAILURES: refused tokens per window per client address; null: off. */
    authFailures: WindowPolicy | null;
  };
  /** TRUST_PROXY: proxies in front of the gateway whose X-Forwarded-For entries are trusted (0: the socket's address only). */
  trustProxy: number;
  redis: {
    /** Set: instances join one fleet through this Redis (live changes and revocations across instances). */
    url?: string;
    /** Instances with the same prefix form one fleet (channel `<prefix>:fleet`). */
    prefix: string;
  };
  elasticsearch: {
    /** Set: every operation goes to this Elasticsearch 8 cluster instead of the embedded store. */
    url?: string;
    /** Encoded API key (the `encoded` value Elasticsearch returns), for a cluster with security on. */
    apiKey?: string;
    /** Index names: `<prefix>-<plural>`, `<prefix>-api-keys`, `<prefix>_slugs`. */
    indexPrefix: string;
    /** Per request, in ms. */
    requestTimeoutMs: number;
    /** Retries (exponential backoff) after a connection error; other errors are never retried. */
    maxRetries: number;
  };
}

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid settings:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  if (e.NODE_ENV === 'production' && !e.AUTH_SECRET && !e.AUTH_JWKS_URL) {
    throw new ConfigError('Invalid settings:\n  AUTH_SECRET or AUTH_JWKS_URL is required when NODE_ENV=production');
  }
  const consoleOn = e.CONSOLE === undefined ? e.NODE_ENV !== 'production' : ['on', 'true', '1'].includes(e.CONSOLE);
  return {
    nodeEnv: e.NODE_ENV,
    port: e.PORT,
    workers: e.WORKERS,
    host: e.HOST,
    dataDir: e.DATA_DIR,
    indexName: e.INDEX_NAME,
    logLevel: e.LOG_LEVEL,
    logRequests: flagValue(e.LOG_REQUESTS, true),
    metrics: e.METRICS ?? (e.NODE_ENV === 'production' ? 'admin' : 'public'),
    auth: {
      secret: e.AUTH_SECRET,
      jwksUrl: e.AUTH_JWKS_URL,
      issuer: e.AUTH_ISSUER,
      audience: e.AUTH_AUDIENCE,
      tenantClaim: e.AUTH_TENANT_CLAIM,
    },
    apiKeys: { maxTtl: e.API_KEY_MAX_TTL, cacheMs: e.API_KEY_CACHE_MS },
    limits: { maxBodyBytes: e.MAX_BODY_BYTES, maxBulkBytes: e.MAX_BULK_BYTES, maxMessageBytes: e.MAX_MESSAGE_BYTES, maxJsonDepth: e.MAX_JSON_DEPTH },
    search: {
      maxQueryDepth: e.MAX_QUERY_DEPTH,
      maxClauseCount: e.MAX_CLAUSE_COUNT,
      maxTermsCount: e.MAX_TERMS_COUNT,
      maxRegexLength: e.MAX_REGEX_LENGTH,
      maxDeterminizedStates: e.MAX_DETERMINIZED_STATES,
      maxFields: e.MAX_FIELDS,
      maxBuckets: e.MAX_BUCKETS,
      maxAnalyzedOffset: e.MAX_ANALYZED_OFFSET,
      timeoutMs: e.SEARCH_TIMEOUT,
      sliceMs: e.SEARCH_SLICE_MS,
      concurrency: e.SEARCH_CONCURRENCY,
      queueSize: e.SEARCH_QUEUE_SIZE,
    },
    searchCacheEntries: e.SEARCH_CACHE_ENTRIES,
    commitThreadFrom: e.COMMIT_THREAD_FROM === 'off' ? Infinity : e.COMMIT_THREAD_FROM,
    indexFileQuietMs: e.INDEX_FILE_QUIET_MS,
    demoData: flagValue(e.DEMO_DATA, e.NODE_ENV === 'development'),
    console: consoleOn,
    graphql: {
      introspection: flagValue(e.GRAPHQL_INTROSPECTION, e.NODE_ENV !== 'production'),
      landingPage: flagValue(e.GRAPHQL_LANDING_PAGE, consoleOn),
      maxDepth: e.GRAPHQL_MAX_DEPTH,
      maxCost: e.GRAPHQL_MAX_COST,
      maxAliases: e.GRAPHQL_MAX_ALIASES,
    },
    cors: { origins: e.CORS_ORIGINS ?? (e.NODE_ENV === 'production' ? [] : '*') },
    rateLimit: { requests: e.RATE_LIMIT, authFailures: e.RATE_LIMIT_AUTH_FAILURES },
    trustProxy: e.TRUST_PROXY,
    redis: { url: e.REDIS_URL, prefix: e.REDIS_PREFIX },
    elasticsearch: {
      url: e.ELASTICSEARCH_URL,
      apiKey: e.ELASTICSEARCH_API_KEY,
      indexPrefix: e.ES_INDEX_PREFIX,
      requestTimeoutMs: e.ES_REQUEST_TIMEOUT_MS,
      maxRetries: e.ES_MAX_RETRIES,
    },
  };
}
