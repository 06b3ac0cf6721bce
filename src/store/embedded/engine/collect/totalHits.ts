/**
 * `track_total_hits` (Elasticsearch's SearchSourceBuilder.trackTotalHitsUpTo and the total it
 * answers): true counts every match; false counts none; a number N counts exactly up to N, beyond
 * which the total is N with the relation "gte" (TopDocsStats: `totalHits > trackTotalHitsUpTo`).
 * Answered in the form of Elasticsearch's `rest_total_hits_as_int`: an integer `total`, -1 when not
 * counted, with `total_relation` beside it when the request gave a bound.
 */
import { InvalidQueryError } from '../../../port';
import { describe } from '../json';

/** Exact counting. */
export const TRACK_ALL = Infinity;
/** No counting. */
export const TRACK_NONE = -1;

/** The request's `track_total_hits` as the number of matches to count exactly (TRACK_ALL, TRACK_NONE or N). */
export function parseTrackTotalHits(value: unknown): number {
  if (value === undefined || value === null || value === true) return TRACK_ALL;
  if (value === false) return TRACK_NONE;
  if (typeof value === 'number' && Number.isSafeInteger(value)) {
    if (value < -1) throw new InvalidQueryError(`[track_total_hits] parameter must be positive or equals to -1, got ${value}`);
    return value;
  }
  throw new InvalidQueryError(`track_total_hits must be true, false or an integer, got ${describe(value)}`);
}

export interface TotalHits {
  total: number;
  relation?: 'eq' | 'gte';
}

/** The total answered for `count` matches (the count need only be exact up to track + 1). */
export function totalHits(count: number, track: number): TotalHits {
  if (track === TRACK_ALL) return { total: count };
  if (track === TRACK_NONE) return { total: -1 };
  return count > track ? { total: track, relation: 'gte' } : { total: count, relation: 'eq' };
}

/** How many matches must be counted for `totalHits` to be right. */
export function countNeeded(track: number): number {
  return track === TRACK_ALL ? Infinity : track + 1;
}
