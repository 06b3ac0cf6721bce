/**
 * Unique slugs per entity type on a cluster that several gateway instances write to at once.
 * Elasticsearch has no unique constraint on a field, but it does guarantee that, of two `create`
 * requests (op_type create) for the same document id, exactly one succeeds. So a slug is taken by
 * creating its reservation document in `<prefix>_slugs`, id = SHA-256(collection + "\n" + slug),
 * body {collection, slug, owner (the entity id), reservedAt}, BEFORE the entity is written. Of
 * two instances racing for one slug, one gets 201 and the other 409: never two entities.
 *
 * Invariant: every entity's current slug has a reservation owned by that entity. So:
 * - create: reserve, then create the entity; if the entity id is taken, give back a reservation
 *   made by this call.
 * - replace with a new slug: reserve the new slug, write the entity only if it did not change since
 *   it was read (if_seq_no), then release the old slug's reservation, conditionally on its
 *   sequence number read before the write: if anyone re-took it meanwhile, it stays.
 * - delete: delete the entity (if unchanged), then release its slug the same way.
 * - "Holding" a reservation is always a write (create, or a conditional re-write when it already
 *   names the same owner), so its sequence number changes and a conditional release made on an
 *   older read fails instead of removing it.
 *
 * A reservation can outlive its purpose (an instance crashed between reserving and writing, or a
 * release failed): it is stale when its owner does not hold that slug AND it is older than the grace
 * period (in-flight writes are younger). A stale reservation is taken over with a conditional write,
 * so only one taker wins. If a write took longer than half the grace period (a stalled process), the
 * reservation is read again after the write, and the write undone if it was taken over meanwhile.
 * Instances' clocks are assumed to agree within a fraction of the grace period (NTP).
 */
import { createHash } from 'node:crypto';
import type { Backend } from './backend';
import { bulkItemFailure, bulkItems, isSuccess } from './bulk';
import { statusOf } from './errors';
import type { IndexManager } from './indexManager';
import type { IndexNames } from './indexNames';
import { slugIndexDefinition } from './mappings';

/** How old an unused reservation must be before another entity may take it over. */
export const SLUG_RESERVATION_GRACE_MS = 120_000;
/** Attempts at holding one reservation when others keep changing it. */
const MAX_HOLD_ATTEMPTS = 5;

export interface Reservation {
  collection: string;
  slug: string;
  owner: string;
  reservedAt: number;
}

/** A reservation this process wrote, with what identifies that write. */
export interface Held {
  docId: string;
  seqNo: number;
  primaryTerm: number;
  /** true: created or taken over now, so an aborted write gives it back; false: it already named the same owner. */
  createdNow: boolean;
  heldAt: number;
}

/** A reservation as read, to release it later only if nobody wrote it since. */
export interface Snapshot {
  docId: string;
  seqNo: number;
  primaryTerm: number;
  owner: string;
}

/** The current slug of an entity, or null when it does not exist. */
export type EntitySlug = (collection: string, id: string) => Promise<string | null>;

export interface SlugReservationOptions {
  now?: () => number;
  graceMs?: number;
}

export class SlugReservations {
  private readonly now: () => number;
  readonly graceMs: number;

  constructor(
    private readonly backend: Backend,
    private readonly names: IndexNames,
    private readonly indices: IndexManager,
    private readonly entitySlug: EntitySlug,
    options: SlugReservationOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.graceMs = options.graceMs ?? SLUG_RESERVATION_GRACE_MS;
  }

  static docId(collection: string, slug: string): string {
    return createHash('sha256').update(`${collection}\n${slug}`).digest('hex');
  }

  ensureIndex(): Promise<void> {
    return this.indices.ensure(this.names.slugs, slugIndexDefinition);
  }

  /** Reserves one slug for `owner`; null when another entity holds it. */
  async hold(collection: string, slug: string, owner: string): Promise<Held | null> {
    return (await this.holdMany(collection, [{ slug, owner }]))[0];
  }

  /** Reserves many slugs at once (one bulk request; conflicts are then resolved one by one). */
  async holdMany(collection: string, wanted: { slug: string; owner: string }[]): Promise<(Held | null)[]> {
    if (wanted.length === 0) return [];
    const heldAt = this.now();
    const operations: unknown[] = [];
    for (const { slug, owner } of wanted) {
      operations.push({ create: { _index: this.names.slugs, _id: SlugReservations.docId(collection, slug) } });
      operations.push({ collection, slug, owner, reservedAt: heldAt } satisfies Reservation);
    }
    const items = bulkItems(await this.backend.call('write', (client) => client.bulk({ operations })), 'create');
    const out: (Held | null)[] = [];
    for (let i = 0; i < wanted.length; i++) {
      const item = items[i];
      const docId = SlugReservations.docId(collection, wanted[i].slug);
      if (isSuccess(item)) {
        out.push({ docId, seqNo: Number(item._seq_no), primaryTerm: Number(item._primary_term), createdNow: true, heldAt });
      } else if (item.status === 409) {
        out.push(await this.resolveConflict(collection, wanted[i].slug, wanted[i].owner));
      } else {
        throw bulkItemFailure('slug reservation', item);
      }
    }
    return out;
  }

  /** The reservation exists: hold it if it is ours or stale, else null. */
  private async resolveConflict(collection: string, slug: string, owner: string): Promise<Held | null> {
    const docId = SlugReservations.docId(collection, slug);
    for (let attempt = 0; attempt < MAX_HOLD_ATTEMPTS; attempt++) {
      const current = await this.read(docId);
      const heldAt = this.now();
      const body: Reservation = { collection, slug, owner, reservedAt: heldAt };
      if (current === null) {
        const created = await this.write(docId, body, 'create');
        if (created !== null) return { docId, ...created, createdNow: true, heldAt };
        continue;
      }
      const mine = current.reservation.owner === owner;
      if (!mine) {
        if ((await this.entitySlug(collection, current.reservation.owner)) === slug) return null;
        if (heldAt - Number(current.reservation.reservedAt) < this.graceMs) return null; // another write in flight
      }
      const rewritten = await this.write(docId, body, { seqNo: current.seqNo, primaryTerm: current.primaryTerm });
      if (rewritten !== null) return { docId, ...rewritten, createdNow: !mine, heldAt };
    }
    return null;
  }

  private async read(docId: string): Promise<{ reservation: Reservation; seqNo: number; primaryTerm: number } | null> {
    try {
      const doc = await this.backend.call('read', (client) => client.get<Reservation>({ index: this.names.slugs, id: docId }));
      if (!doc.found || doc._source === undefined) return null;
      return { reservation: doc._source, seqNo: Number(doc._seq_no), primaryTerm: Number(doc._primary_term) };
    } catch (err) {
      if (statusOf(err) === 404) return null;
      throw err;
    }
  }

  /** A create, or a write conditional on the sequence number read; null on a version conflict. */
  private async write(docId: string, body: Reservation, mode: 'create' | { seqNo: number; primaryTerm: number }): Promise<{ seqNo: number; primaryTerm: number } | null> {
    try {
      const res = await this.backend.call('write', (client) =>
        mode === 'create'
          ? client.create({ index: this.names.slugs, id: docId, document: body })
          : client.index({ index: this.names.slugs, id: docId, document: body, if_seq_no: mode.seqNo, if_primary_term: mode.primaryTerm }),
      );
      return { seqNo: Number(res._seq_no), primaryTerm: Number(res._primary_term) };
    } catch (err) {
      if (statusOf(err) === 409 || (mode !== 'create' && statusOf(err) === 404)) return null;
      throw err;
    }
  }

  /** The reservation of a slug as it is now, to release it after a write (see releaseSnapshot). */
  async snapshot(collection: string, slug: string): Promise<Snapshot | null> {
    const docId = SlugReservations.docId(collection, slug);
    const current = await this.read(docId);
    return current === null ? null : { docId, seqNo: current.seqNo, primaryTerm: current.primaryTerm, owner: current.reservation.owner };
  }

  /** Deletes a reservation read earlier by `owner`'s write, unless anyone wrote it since. */
  async releaseSnapshot(snapshot: Snapshot | null, owner: string): Promise<void> {
    if (snapshot === null || snapshot.owner !== owner) return;
    await this.releaseMany([snapshot]);
  }

  /** Gives back reservations, each only if it is still the version given (a lost race changes nothing). */
  async releaseMany(items: { docId: string; seqNo: number; primaryTerm: number }[]): Promise<void> {
    if (items.length === 0) return;
    const operations = items.map((h) => ({ delete: { _index: this.names.slugs, _id: h.docId, if_seq_no: h.seqNo, if_primary_term: h.primaryTerm } }));
    // 404 and 409 items are the races this allows; a failure to release only leaves a stale reservation.
    await this.backend.call('write', (client) => client.bulk({ operations }));
  }

  /** Whether a held reservation may have been taken over: the write after it took over half the grace period. */
  needsRecheck(held: Held): boolean {
    return this.now() - held.heldAt > this.graceMs / 2;
  }

  /** For each held reservation: is it still the version this process wrote? */
  async stillHeld(helds: Held[]): Promise<boolean[]> {
    if (helds.length === 0) return [];
    const res = await this.backend.call('read', (client) => client.mget<Reservation>({ index: this.names.slugs, ids: helds.map((h) => h.docId) }));
    return helds.map((h, i) => {
      const doc = res.docs[i] as { found?: boolean; _seq_no?: number; _primary_term?: number };
      return doc.found === true && doc._seq_no === h.seqNo && doc._primary_term === h.primaryTerm;
    });
  }
}
