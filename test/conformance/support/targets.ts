/**
 * The stores the conformance suite runs on (DESIGN.md: test/conformance is one suite every store
 * must pass):
 * - "embedded": always, on a fresh DATA_DIR per describe block, its bulk writes through the commit thread;
 * - "elasticsearch (simulated)": always, the Elasticsearch store, built by createStore from
 *   ELASTICSEARCH_URL exactly as in production (real client, real HTTP), talking to an in-memory
 *   stand-in for a node served on a local port (src/store/elasticsearch/testing/fakeElasticsearch.ts).
 *   It checks the store's own logic (what it sends, slugs, outcomes, errors) through the whole
 *   service; scores and matching there come from the embedded engine, so it says nothing about
 *   Elasticsearch itself;
 * - "elasticsearch": only when ELASTICSEARCH_URL is set, on that cluster, with an index prefix of its
 *   own per describe block (deleted afterwards). Otherwise its blocks are reported as skipped, with
 *   the reason in their name.
 */
import { Client } from '@elastic/elasticsearch';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Config } from '../../../src/config';
import { createStore } from '../../../src/server';
import { indexNames } from '../../../src/store/elasticsearch/indexNames';
import { FakeElasticsearch } from '../../../src/store/elasticsearch/testing/fakeElasticsearch';
import type { Store } from '../../../src/store/port';

export type TargetKind = 'embedded' | 'simulated' | 'live';

/** One backend (a data directory, a fake node, an index prefix) that one or more gateways use. */
export interface Backend {
  /** Settings the gateways of this backend get (added to the test defaults). */
  env: Record<string, string>;
  /** A store on this backend, as the gateway builds it. */
  store(config: Config): Store;
  /** Removes what the backend holds (temporary directory, indices). */
  destroy(): Promise<void>;
}

export interface StoreTarget {
  name: string;
  kind: TargetKind;
  /** Whether two gateway instances may share one backend (every store now: the embedded one through its SQLite change log). */
  multiInstance: boolean;
  /**
   * Whether an instance hears, from the store itself, of the changes made through the others (live
   * subscriptions, revocations): the embedded store through its change log; Elasticsearch needs the
   * Redis bus for that.
   */
  sharesChanges: boolean;
  open(): Promise<Backend>;
}

export const LIVE_URL = process.env.ELASTICSEARCH_URL?.trim() || undefined;
export const SKIP_REASON = 'skipped: ELASTICSEARCH_URL not set';

// On a real cluster every write waits for the next refresh (refresh: wait_for, up to 1 s by default).
if (LIVE_URL !== undefined) jest.setTimeout(120_000);

let counter = 0;
/** Unique lowercase token for names (collections, prefixes, users), unique across runs and files. */
export function uniqueToken(): string {
  return `${Date.now().toString(36)}${process.pid.toString(36)}${(++counter).toString(36)}`;
}

const embedded: StoreTarget = {
  name: 'embedded',
  kind: 'embedded',
  multiInstance: true,
  sharesChanges: true,
  async open() {
    const dir = mkdtempSync(join(tmpdir(), 'conformance-'));
    return {
      // (bulk writes of 2 entities or more through the commit thread, single writes on the main thread: both paths)
      env: { DATA_DIR: dir, COMMIT_THREAD_FROM: '2' },
      store: (config) => createStore(config),
      destroy: async () => rmSync(dir, { recursive: true, force: true }),
    };
  },
};

const simulated: StoreTarget = {
  name: 'elasticsearch (simulated)',
  kind: 'simulated',
  multiInstance: true,
  sharesChanges: false,
  async open() {
    const fake = new FakeElasticsearch();
    const http = await fake.listen();
    return {
      env: { ELASTICSEARCH_URL: http.url, ES_INDEX_PREFIX: `conformance-${uniqueToken()}` },
      store: (config) => createStore(config),
      destroy: () => http.close(),
    };
  },
};

/** Deletes every index of a prefix (wildcard deletes are refused by default: names are listed first). */
export async function deleteIndices(url: string, prefix: string): Promise<void> {
  const client = new Client({ node: url });
  try {
    const names = indexNames(prefix);
    const found = await client.indices.get({ index: names.patterns.join(','), ignore_unavailable: true, allow_no_indices: true });
    const all = Object.keys(found);
    if (all.length > 0) await client.indices.delete({ index: all.join(',') });
  } finally {
    await client.close();
  }
}

const live = (url: string): StoreTarget => ({
  name: 'elasticsearch',
  kind: 'live',
  multiInstance: true,
  sharesChanges: false,
  async open() {
    const prefix = `conformance-${uniqueToken()}`;
    return {
      env: { ELASTICSEARCH_URL: url, ES_INDEX_PREFIX: prefix },
      store: (config) => createStore(config),
      destroy: () => deleteIndices(url, prefix),
    };
  },
});

export const TARGETS: StoreTarget[] = [embedded, simulated, ...(LIVE_URL ? [live(LIVE_URL)] : [])];

/**
 * One describe block per store target. Without ELASTICSEARCH_URL, the live target's block is a
 * skipped one whose name says why.
 */
export function describeEachStore(title: string, body: (target: StoreTarget) => void, only?: (target: StoreTarget) => boolean): void {
  for (const target of TARGETS) {
    if (only !== undefined && !only(target)) continue;
    describe(`${title} [${target.name}]`, () => body(target));
  }
  if (LIVE_URL === undefined) {
    describe.skip(`${title} [elasticsearch] (${SKIP_REASON})`, () => {
      it(`runs on a live Elasticsearch 8 when ELASTICSEARCH_URL is set (${SKIP_REASON})`, () => undefined);
    });
  }
}
