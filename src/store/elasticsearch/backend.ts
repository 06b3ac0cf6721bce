/**
 * One way to talk to Elasticsearch for every part of the store: the client call, retried after a
 * connection error (retry.ts), and its final failure sorted (errors.ts). Callers read the expected
 * failures (404, 409) from the ResponseError they get back; the others arrive already mapped.
 */
import type { Client } from '@elastic/elasticsearch';
import { toStoreError, type CallKind } from './errors';
import { DEFAULT_RETRY, withRetry, type RetryPolicy, type Sleep } from './retry';

export interface BackendOptions {
  retry?: RetryPolicy;
  sleep?: Sleep;
}

export class Backend {
  private readonly retry: RetryPolicy;
  private readonly sleep?: Sleep;

  constructor(
    readonly client: Client,
    options: BackendOptions = {},
  ) {
    this.retry = options.retry ?? DEFAULT_RETRY;
    this.sleep = options.sleep;
  }

  /** `op` gets the client and the attempt number (0 first: more means an earlier attempt may have been applied). */
  async call<T>(kind: CallKind, op: (client: Client, attempt: number) => Promise<T>): Promise<T> {
    try {
      return await withRetry((attempt) => op(this.client, attempt), this.retry, this.sleep);
    } catch (err) {
      throw toStoreError(err, kind);
    }
  }
}
