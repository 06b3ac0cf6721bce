/**
 * Derived slugs never refuse a write (as CMSs do): when the slug derived from the name (or the id)
 * is taken, the entity gets the next free one, `france-2`, `france-3`, ... A slug given explicitly
 * is the client's choice: taken, it is still a 409.
 *
 * Slugs are unique per entity type, over every tenant: another tenant's entity can take the plain
 * form (the suffix tells no more than a 409 did).
 */
import type { Doc, WriteOutcome } from '../../store/port';
import { MAX_SLUG_LENGTH, slugify } from './entityDocument';

/** Numbered forms tried before the entity's own id is used as the suffix (always free but for a slug someone chose). */
export const NUMBERED_ATTEMPTS = 20;

/** Whether the slug of an entity built from this input was derived (the client gave none). */
export const slugDerived = (input: unknown): boolean => {
  const given = (input as { slug?: unknown } | null)?.slug;
  return given === undefined || given === null;
};

/**
 * The slug to try after `attempt` failures of `base` (attempt 0: base itself): base-2, base-3, ...,
 * then base-<id>; always within MAX_SLUG_LENGTH.
 */
export function slugAttempt(base: string, attempt: number, id: string): string {
  if (attempt === 0) return base;
  const suffix = attempt <= NUMBERED_ATTEMPTS ? `-${attempt + 1}` : `-${slugify(id) || attempt + 1}`;
  return base.slice(0, MAX_SLUG_LENGTH - suffix.length) + suffix;
}

/**
 * Creates entities whose slugs may be derived: `write` takes the documents still to write and
 * answers an outcome each; those refused for a taken derived slug are written again with the next
 * slug (in a batch, entities deriving the same slug get distinct ones from the start). Returns the
 * outcomes, in order; `docs` hold the slugs they were written with.
 */
export async function createWithFreeSlugs(docs: { id: string; source: Doc; derived: boolean }[], write: (items: { id: string; source: Doc }[]) => Promise<WriteOutcome[]>): Promise<WriteOutcome[]> {
  const bases = docs.map((d) => String(d.source.slug));
  const attempts = docs.map(() => 0);
  // in one batch, the second "Paris" starts at paris-2, the third at paris-3...
  const seen = new Map<string, number>();
  docs.forEach((d, i) => {
    if (!d.derived) return;
    const n = seen.get(bases[i]) ?? 0;
    seen.set(bases[i], n + 1);
    attempts[i] = n;
    d.source.slug = slugAttempt(bases[i], n, d.id);
  });
  const outcomes: WriteOutcome[] = new Array(docs.length);
  let pending = docs.map((_, i) => i);
  for (let round = 0; pending.length > 0; round++) {
    const answers = await write(pending.map((i) => ({ id: docs[i].id, source: docs[i].source })));
    const again: number[] = [];
    pending.forEach((i, k) => {
      outcomes[i] = answers[k];
      if (answers[k] === 'slug_taken' && docs[i].derived && attempts[i] <= NUMBERED_ATTEMPTS) {
        // the group of same-slug entities moves past the taken ones together
        attempts[i] += Math.max(1, seen.get(bases[i]) ?? 1);
        if (attempts[i] > NUMBERED_ATTEMPTS) attempts[i] = NUMBERED_ATTEMPTS + 1;
        docs[i].source.slug = slugAttempt(bases[i], attempts[i], docs[i].id);
        again.push(i);
      }
    });
    pending = again;
  }
  return outcomes;
}
