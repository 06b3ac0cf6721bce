/**
 * Koncorde filters (Kuzzle's realtime filter language) for live subscriptions, compiled and tested
 * by Kuzzle's own engine, the `koncorde` package: one engine per change feed, every subscription's
 * filter stored in it under its collection (Koncorde's index), so that a change is tested once for
 * all the filters of its collection.
 *
 * A document is tested as Kuzzle tests it (lib/util/koncordeCompat.ts, koncordeTest): the entity's
 * fields plus `_id` (for `ids`). Regular expressions run on RE2 (Koncorde's default: no
 * backtracking). A filter is checked first for what compiling it would cost (koncordeCost.ts) and
 * for geo coordinates out of range (koncordeGeo.ts); these and anything Koncorde refuses are 400
 * api.assert.koncorde_dsl_error with a reason, keyword and path.
 */
import type { Koncorde, NormalizedFilter } from 'koncorde';
import { fail, ok, type Result } from '../errors';
import type { Doc } from '../../store/port';
import { koncordeCostProblem, MAX_CONDITIONS } from './koncordeCost';
import { geoProblem } from './koncordeGeo';

/** A compiled filter: whether an entity matches it, and its release when the subscription ends. */
export interface CompiledFilter {
  matches(id: string, doc: Doc): boolean;
  release(): void;
}

/** What one test of one document found: the filter ids that match it, for as long as no filter is added or removed. */
interface Tested {
  id: string;
  index: string;
  generation: number;
  matched: Set<string>;
}

export class KoncordeFilters {
  private readonly engine: Koncorde;
  /** Subscriptions per stored filter id (the same filter on the same collection is stored once). */
  private readonly uses = new Map<string, number>();
  /** Bumped when a filter is stored or removed: older test results are stale. */
  private generation = 0;
  /** The last test of each changed entity (every subscriber of a change asks about the same objects). */
  private readonly tested = new WeakMap<Doc, Tested>();

  constructor() {
    // (loaded with the first Koncorde subscription: its native addons take about 0.1 s to load)
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { Koncorde: Engine } = require('koncorde') as typeof import('koncorde');
    this.engine = new Engine({ maxConditions: MAX_CONDITIONS, regExpEngine: 're2' } as ConstructorParameters<typeof Engine>[0]);
  }

  /** Compiles a filter for one collection, or says why it cannot. */
  compile(collection: string, filter: Record<string, unknown>): Result<CompiledFilter> {
    const problem = koncordeCostProblem(filter);
    if (problem !== undefined) return fail('api.assert.koncorde_dsl_error', { reason: `Filter too complex: ${problem}`, keyword: null, path: null });
    // (a geo centre beyond the poles aborts the process inside Koncorde's native index: koncordeGeo.ts)
    const geo = geoProblem(filter);
    if (geo !== undefined) return fail('api.assert.koncorde_dsl_error', { ...geo });
    let normalized: NormalizedFilter;
    try {
      normalized = this.engine.normalize(filter, collection);
    } catch (err) {
      return fail('api.assert.koncorde_dsl_error', koncordeErrorProps(err));
    }
    const id = this.engine.store(normalized);
    this.uses.set(id, (this.uses.get(id) ?? 0) + 1);
    this.generation++;
    let released = false;
    return ok({
      matches: (docId, doc) => this.matching(collection, docId, doc).has(id),
      release: () => {
        if (released) return;
        released = true;
        const left = this.uses.get(id)! - 1;
        if (left > 0) {
          this.uses.set(id, left);
          return;
        }
        this.uses.delete(id);
        this.engine.remove(id, collection);
        this.generation++;
      },
    });
  }

  /** How many distinct filters are stored (tests). */
  get size(): number {
    return this.uses.size;
  }

  private matching(index: string, id: string, doc: Doc): Set<string> {
    const known = this.tested.get(doc);
    if (known !== undefined && known.id === id && known.index === index && known.generation === this.generation) return known.matched;
    const matched = new Set(this.engine.test(testedFields(id, doc), index));
    this.tested.set(doc, { id, index, generation: this.generation, matched });
    return matched;
  }
}

/**
 * The entity's fields and `_id`, as Kuzzle tests a document. A top-level field named `__proto__`
 * is left out: Koncorde's flattening would make it the prototype of what it tests.
 */
function testedFields(id: string, doc: Doc): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const key of Object.keys(doc)) if (key !== '__proto__') fields[key] = doc[key];
  fields._id = id;
  return fields;
}

/** Koncorde's reason (a KoncordeParseError names the keyword and where it is; "Filter too complex" is a plain Error). */
function koncordeErrorProps(err: unknown): { reason: string; keyword: string | null; path: string | null } {
  const e = err as { message?: unknown; keyword?: unknown; path?: unknown };
  const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
  return { reason: str(e?.message) ?? 'unreadable filter', keyword: str(e?.keyword), path: str(e?.path) };
}

/** One engine per change feed: the subscriptions of one gateway share it. */
const engines = new WeakMap<object, KoncordeFilters>();

export function koncordeFiltersOf(feed: object): KoncordeFilters {
  let filters = engines.get(feed);
  if (filters === undefined) {
    filters = new KoncordeFilters();
    engines.set(feed, filters);
  }
  return filters;
}
