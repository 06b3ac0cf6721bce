import { InvalidQueryError } from '../../../port';
import { TRACK_ALL, TRACK_NONE, countNeeded, parseTrackTotalHits, totalHits } from './totalHits';

describe('track_total_hits', () => {
  it('reads true, false, -1 and bounds, and refuses the rest', () => {
    expect(parseTrackTotalHits(undefined)).toBe(TRACK_ALL);
    expect(parseTrackTotalHits(true)).toBe(TRACK_ALL);
    expect(parseTrackTotalHits(false)).toBe(TRACK_NONE);
    expect(parseTrackTotalHits(-1)).toBe(TRACK_NONE);
    expect(parseTrackTotalHits(100)).toBe(100);
    expect(() => parseTrackTotalHits(-2)).toThrow(new InvalidQueryError('[track_total_hits] parameter must be positive or equals to -1, got -2'));
    expect(() => parseTrackTotalHits('10')).toThrow(InvalidQueryError);
    expect(() => parseTrackTotalHits(1.5)).toThrow(InvalidQueryError);
  });

  it('answers the total in the rest_total_hits_as_int form, the relation beside a bound', () => {
    expect(totalHits(12, TRACK_ALL)).toEqual({ total: 12 });
    expect(totalHits(12, TRACK_NONE)).toEqual({ total: -1 });
    expect(totalHits(12, 12)).toEqual({ total: 12, relation: 'eq' });
    expect(totalHits(13, 12)).toEqual({ total: 12, relation: 'gte' });
    expect(countNeeded(12)).toBe(13);
    expect(countNeeded(TRACK_NONE)).toBe(0);
  });
});
