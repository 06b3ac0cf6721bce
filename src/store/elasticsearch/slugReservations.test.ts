import { Backend } from './backend';
import { IndexManager } from './indexManager';
import { indexNames } from './indexNames';
import { SLUG_RESERVATION_GRACE_MS, SlugReservations } from './slugReservations';
import { FakeElasticsearch } from './testing/fakeElasticsearch';

const GRACE = SLUG_RESERVATION_GRACE_MS;

function setup() {
  const fake = new FakeElasticsearch();
  const backend = new Backend(fake.client());
  const clock = { now: 1_000_000 };
  /** entity id -> its current slug (what the entity index would say). */
  const entities = new Map<string, string>();
  const reservations = new SlugReservations(backend, indexNames('gw'), new IndexManager(backend), async (_c, id) => entities.get(id) ?? null, {
    now: () => clock.now,
  });
  const docId = (slug: string) => SlugReservations.docId('countries', slug);
  const stored = (slug: string) => fake.doc('gw_slugs', docId(slug));
  return { fake, reservations, clock, entities, docId, stored };
}

describe('slug reservations', () => {
  it('reserve with one bulk of op_type create into <prefix>_slugs, id = SHA-256(collection \\n slug)', async () => {
    const { fake, reservations, docId } = setup();
    expect(docId('france')).toMatch(/^[0-9a-f]{64}$/);
    expect(docId('france')).not.toBe(SlugReservations.docId('regions', 'france'));
    const [held] = await reservations.holdMany('countries', [{ slug: 'france', owner: 'fr' }]);
    expect(held).toEqual({ docId: docId('france'), seqNo: 0, primaryTerm: 1, createdNow: true, heldAt: 1_000_000 });
    expect(fake.requests).toEqual([
      {
        method: 'POST',
        path: '/_bulk',
        querystring: {},
        body: [{ create: { _index: 'gw_slugs', _id: docId('france') } }, { collection: 'countries', slug: 'france', owner: 'fr', reservedAt: 1_000_000 }],
      },
    ]);
  });

  it('refuses a slug whose owner holds it', async () => {
    const { reservations, entities } = setup();
    await reservations.hold('countries', 'france', 'fr');
    entities.set('fr', 'france');
    expect(await reservations.hold('countries', 'france', 'other')).toBeNull();
  });

  it('refuses a slug reserved for a write still in flight (younger than the grace period)', async () => {
    const { reservations, clock } = setup();
    await reservations.hold('countries', 'france', 'fr');
    clock.now += GRACE - 1;
    expect(await reservations.hold('countries', 'france', 'other')).toBeNull();
  });

  it('takes over a stale reservation (owner without that slug, older than the grace period) with a conditional write', async () => {
    const { fake, reservations, clock, entities, docId, stored } = setup();
    await reservations.hold('countries', 'france', 'fr');
    entities.set('fr', 'republique-francaise'); // renamed, the release was lost
    clock.now += GRACE + 1;
    fake.clearRequests();
    const held = await reservations.hold('countries', 'france', 'other');
    expect(held).toEqual(expect.objectContaining({ createdNow: true }));
    expect(stored('france')).toEqual(expect.objectContaining({ owner: 'other' }));
    expect(fake.requests.map((r) => [r.method, r.path, r.querystring])).toEqual([
      ['POST', '/_bulk', {}],
      ['GET', `/gw_slugs/_doc/${docId('france')}`, {}],
      ['PUT', `/gw_slugs/_doc/${docId('france')}`, { if_seq_no: '0', if_primary_term: '1' }],
    ]);
  });

  it('re-writes its own reservation (a new version), without counting it as new', async () => {
    const { reservations, clock } = setup();
    const first = await reservations.hold('countries', 'france', 'fr');
    clock.now += 10;
    const again = await reservations.hold('countries', 'france', 'fr');
    expect(again).toEqual(expect.objectContaining({ createdNow: false, heldAt: first!.heldAt + 10 }));
    expect(again!.seqNo).toBeGreaterThan(first!.seqNo);
  });

  it('of two owners racing for a slug, exactly one gets it', async () => {
    const { reservations } = setup();
    const results = await Promise.all(['a', 'b', 'c', 'd'].map((owner) => reservations.hold('countries', 'same', owner)));
    expect(results.filter((r) => r !== null)).toHaveLength(1);
  });

  it('releases only the version it holds', async () => {
    const { fake, reservations, stored, docId } = setup();
    const held = await reservations.hold('countries', 'france', 'fr');
    const snapshot = await reservations.snapshot('countries', 'france');
    expect(snapshot).toEqual({ docId: docId('france'), seqNo: held!.seqNo, primaryTerm: 1, owner: 'fr' });
    await reservations.hold('countries', 'france', 'fr'); // re-written meanwhile
    fake.clearRequests();
    await reservations.releaseSnapshot(snapshot, 'fr');
    expect(fake.requests[0].body).toEqual([{ delete: { _index: 'gw_slugs', _id: docId('france'), if_seq_no: 0, if_primary_term: 1 } }]);
    expect(stored('france')).toBeDefined(); // the conditional delete lost
    await reservations.releaseSnapshot(await reservations.snapshot('countries', 'france'), 'someone-else');
    expect(stored('france')).toBeDefined(); // not the owner's
    await reservations.releaseSnapshot(await reservations.snapshot('countries', 'france'), 'fr');
    expect(stored('france')).toBeUndefined();
  });

  it('knows when a stalled write must check its reservation again', async () => {
    const { reservations, clock, entities } = setup();
    const held = (await reservations.hold('countries', 'france', 'fr'))!;
    expect(reservations.needsRecheck(held)).toBe(false);
    clock.now += GRACE / 2 + 1;
    expect(reservations.needsRecheck(held)).toBe(true);
    expect(await reservations.stillHeld([held])).toEqual([true]);
    clock.now += GRACE;
    await reservations.hold('countries', 'france', 'thief'); // fr never wrote its entity: stale
    expect(entities.size).toBe(0);
    expect(await reservations.stillHeld([held])).toEqual([false]);
  });
});
