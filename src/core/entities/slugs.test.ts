/** Derived slugs: the next free form instead of a 409; chosen slugs still refused when taken. */
import type { Doc, WriteOutcome } from '../../store/port';
import { NUMBERED_ATTEMPTS, createWithFreeSlugs, slugAttempt, slugDerived } from './slugs';
import { MAX_SLUG_LENGTH } from './entityDocument';

/** A store of slugs: a write fails on a taken slug or id. */
function store(taken: string[] = []) {
  const slugs = new Set(taken);
  const ids = new Set<string>();
  let calls = 0;
  const write = async (items: { id: string; source: Doc }[]): Promise<WriteOutcome[]> => {
    calls++;
    return items.map(({ id, source }) => {
      if (ids.has(id)) return 'id_taken';
      if (slugs.has(String(source.slug))) return 'slug_taken';
      ids.add(id);
      slugs.add(String(source.slug));
      return 'ok';
    });
  };
  return { write, slugs, calls: () => calls };
}
const doc = (id: string, slug: string, derived = true) => ({ id, source: { slug } as Doc, derived });

describe('slugs', () => {
  it('tells derived slugs from chosen ones', () => {
    expect(slugDerived({ name: 'France' })).toBe(true);
    expect(slugDerived({ name: 'France', slug: null })).toBe(true);
    expect(slugDerived({ name: 'France', slug: 'fr' })).toBe(false);
  });

  it('numbers the next forms, then uses the id, within the length limit', () => {
    expect([0, 1, 2].map((a) => slugAttempt('france', a, 'ID-1'))).toEqual(['france', 'france-2', 'france-3']);
    expect(slugAttempt('france', NUMBERED_ATTEMPTS + 1, 'ID-1')).toBe('france-id-1');
    const long = 'x'.repeat(MAX_SLUG_LENGTH);
    expect(slugAttempt(long, 3, 'a')).toHaveLength(MAX_SLUG_LENGTH);
    expect(slugAttempt(long, 3, 'a').endsWith('-4')).toBe(true);
  });

  it('gives a taken derived slug the next free form', async () => {
    const s = store(['france', 'france-2']);
    const docs = [doc('a', 'france')];
    expect(await createWithFreeSlugs(docs, s.write)).toEqual(['ok']);
    expect(docs[0].source.slug).toBe('france-3');
  });

  it('still refuses a taken slug the client chose, and a taken id', async () => {
    const s = store(['france']);
    const chosen = [doc('a', 'france', false)];
    expect(await createWithFreeSlugs(chosen, s.write)).toEqual(['slug_taken']);
    expect(chosen[0].source.slug).toBe('france');
    expect(await createWithFreeSlugs([doc('b', 'belgium')], s.write)).toEqual(['ok']);
    expect(await createWithFreeSlugs([doc('b', 'belgium')], s.write)).toEqual(['id_taken']);
  });

  it('gives every entity of a batch deriving the same slug its own, in few rounds, beside other items', async () => {
    const s = store(['paris', 'paris-2', 'paris-3']);
    const docs = [...Array.from({ length: 5 }, (_, i) => doc(`p${i}`, 'paris')), doc('x', 'lyon'), doc('y', 'lyon', false)];
    const outcomes = await createWithFreeSlugs(docs, s.write);
    expect(outcomes).toEqual(['ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'slug_taken']);
    expect(docs.slice(0, 5).map((d) => String(d.source.slug)).sort()).toEqual(['paris-4', 'paris-5', 'paris-6', 'paris-7', 'paris-8']);
    expect(docs.slice(5).map((d) => d.source.slug)).toEqual(['lyon', 'lyon']);
    expect(s.calls()).toBeLessThanOrEqual(3);
  });

  it('ends with the id as the suffix when the numbered forms are all taken', async () => {
    const s = store(['rome', ...Array.from({ length: NUMBERED_ATTEMPTS }, (_, i) => `rome-${i + 2}`)]);
    const docs = [doc('R9', 'rome')];
    expect(await createWithFreeSlugs(docs, s.write)).toEqual(['ok']);
    expect(docs[0].source.slug).toBe('rome-r9');
  });
});
