/** What the mCreate tests share: a real embedded store in a temporary DATA_DIR, its core deps, the changes told to the feed, an admin. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmbeddedStore } from '../../../store/embedded/embeddedStore';
import type { CoreDeps } from '../../deps';
import { ChangeFeed, type EntityChange } from '../../events/changeFeed';
import type { Principal } from '../../principal';
import { parseCollection } from '../entityType';

export const admin: Principal = { userId: 'ada', tenantId: 'hq', roles: ['admin'], slug: 'ada', shortName: 'Ada', apiKeyId: null, expiresAt: -1 };

/** The entity type "towns". */
export const towns = (() => {
  const t = parseCollection('towns');
  if (!t.ok) throw t.error;
  return t.value;
})();

export interface BulkFixture {
  store: EmbeddedStore;
  deps: CoreDeps;
  changes: EntityChange[];
}

/** Registers beforeAll/afterAll: a fresh store (ids id1, id2... and a fixed clock) for the suite. */
export function bulkFixture(prefix: string): BulkFixture {
  const fixture = { changes: [] } as unknown as BulkFixture;
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), prefix));
    fixture.store = new EmbeddedStore(dir);
    const feed = new ChangeFeed();
    feed.subscribe((c) => fixture.changes.push(c));
    let n = 0;
    fixture.deps = { store: fixture.store, feed, now: () => 1_700_000_000_000, newId: () => `id${++n}` } as unknown as CoreDeps;
  });
  afterAll(async () => {
    await fixture.store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return fixture;
}
