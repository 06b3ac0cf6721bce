/**
 * Helpers of the GraphQL end-to-end suites: GraphQL over HTTP (plain POSTs to /graphql), GraphQL over
 * WebSocket with graphql-ws's own client, event collectors with bounded waits, GraphQL error
 * assertions, and a waiter for raw-WebSocket notifications.
 */
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { request, type HttpResponse, type SocketClient, type TestServer } from './testServer';

export const GRAPHQL_PATH = '/graphql';

/** ws://host:port/graphql for a test server. */
export const graphqlWsUrl = (server: Pick<TestServer, 'wsUrl'>): string => server.wsUrl.replace(/\/$/, '') + GRAPHQL_PATH;

/** One GraphQL operation as a plain HTTP POST. `token` is sent as a bearer token; omitted = none. */
export function gqlHttp(
  server: Pick<TestServer, 'url'>,
  query: string,
  opts: { variables?: Record<string, unknown>; token?: string; headers?: Record<string, string> } = {},
): Promise<HttpResponse> {
  const body: Record<string, unknown> = { query };
  if (opts.variables !== undefined) body.variables = opts.variables;
  return request(server, 'POST', GRAPHQL_PATH, { token: opts.token, body, headers: opts.headers });
}

/** The `data` of a GraphQL HTTP answer that must have succeeded (shows the errors otherwise). */
export function expectGqlData(res: HttpResponse): any {
  expect({ status: res.status, errors: res.body?.errors }).toEqual({ status: 200, errors: undefined });
  expect(res.body.data).toBeDefined();
  return res.body.data;
}

/** A GraphQL error with `extensions.code` = id and `extensions.status` = status; returns it. */
export function expectGqlError(errors: readonly any[] | undefined, code: string, status: number): any {
  expect(Array.isArray(errors)).toBe(true);
  expect(errors!.length).toBeGreaterThan(0);
  const summary = errors!.map((e) => ({ code: e?.extensions?.code, status: e?.extensions?.status }));
  expect(summary).toContainEqual({ code, status });
  const error = errors!.find((e) => e?.extensions?.code === code);
  expect(typeof error.message).toBe('string');
  expect(error.message.length).toBeGreaterThan(0);
  return error;
}

/** Resolves once `check()` returns a value other than undefined/false; rejects after timeoutMs. */
export async function waitUntil<T>(check: () => T | undefined | false, what: string, timeoutMs = 5000, everyMs = 10): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value !== undefined && value !== false) return value as T;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** graphql-ws's client, connected to a test server; failures surface (no retries). */
export function openGraphQLWs(server: Pick<TestServer, 'wsUrl'>, token?: string): Client {
  return createClient({
    url: graphqlWsUrl(server),
    webSocketImpl: WebSocket,
    connectionParams: token === undefined ? undefined : { Authorization: `Bearer ${token}` },
    retryAttempts: 0,
    lazy: true,
    lazyCloseTimeout: 0,
  });
}

/** What a graphql-ws sink received for one operation. */
export class Operation {
  /** Every `next` payload (ExecutionResult), in order. */
  readonly results: any[] = [];
  /** The `error` the sink received: GraphQL errors (array), a CloseEvent or an Error. */
  error: unknown = undefined;
  completed = false;
  private readonly dispose: () => void;

  constructor(client: Client, query: string, variables?: Record<string, unknown>) {
    this.dispose = client.subscribe(
      { query, variables },
      {
        next: (value) => void this.results.push(value),
        error: (err) => {
          this.error = err;
        },
        complete: () => {
          this.completed = true;
        },
      },
    );
  }

  /** Ended, by completion or error. */
  get ended(): boolean {
    return this.completed || this.error !== undefined;
  }

  /** The GraphQL errors received: those of `error` when it is an array, plus those inside `next` payloads. */
  get graphqlErrors(): any[] {
    const inNext = this.results.flatMap((r) => (Array.isArray(r?.errors) ? r.errors : []));
    return [...(Array.isArray(this.error) ? this.error : []), ...inNext];
  }

  /** `data` of every next payload that had data. */
  get data(): any[] {
    return this.results.filter((r) => r?.data != null).map((r) => r.data);
  }

  /** The first data payload satisfying `match`. */
  waitForData(match: (data: any) => boolean, what: string, timeoutMs = 5000): Promise<any> {
    return waitUntil(() => this.data.find(match), what, timeoutMs);
  }

  waitForEnd(timeoutMs = 5000): Promise<true> {
    return waitUntil(() => this.ended || undefined, 'the operation to end', timeoutMs);
  }

  unsubscribe(): void {
    this.dispose();
  }
}

/** A query or mutation over graphql-ws: resolves when it ends, with what the sink received. */
export async function gqlWs(client: Client, query: string, variables?: Record<string, unknown>): Promise<Operation> {
  const op = new Operation(client, query, variables);
  await op.waitForEnd();
  return op;
}

/**
 * graphql-ws has no acknowledgement of a subscription: this repeats a change the subscription must
 * see (`poke`) until one of those changes arrives (`arrived`), so that later changes are certain to
 * be caught. Bounded: at most `timeoutMs`.
 */
export async function untilLive(poke: () => Promise<unknown>, arrived: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!arrived()) {
    if (Date.now() > deadline) throw new Error(`subscription not live after ${timeoutMs} ms`);
    await poke();
    try {
      await waitUntil(() => arrived() || undefined, 'a probe change', 150);
    } catch {
      // not live yet: poke again
    }
  }
}

/** The first raw-WebSocket message (already received or still to come) satisfying `match`. */
export function waitForSocketMessage(client: SocketClient, match: (msg: any) => boolean, what: string, timeoutMs = 5000): Promise<any> {
  return waitUntil(() => client.received.find(match), what, timeoutMs);
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
