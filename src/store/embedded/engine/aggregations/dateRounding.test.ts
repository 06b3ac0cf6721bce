import { InvalidQueryError } from '../../../port';
import { UTC, parseTimeZone } from '../dates';
import { calendarInterval, calendarRounding, fixedInterval, fixedRounding } from './dateRounding';

const at = (iso: string) => Date.parse(iso);

describe('calendar rounding', () => {
  it('rounds to the start of the unit in UTC', () => {
    const month = calendarRounding(calendarInterval('1M', 'x'), UTC, 0);
    expect(month.round(at('2024-02-29T23:59:59.999Z'))).toBe(at('2024-02-01T00:00:00Z'));
    expect(month.next(at('2024-12-01T00:00:00Z'))).toBe(at('2025-01-01T00:00:00Z'));
    const week = calendarRounding(calendarInterval('week', 'x'), UTC, 0);
    expect(week.round(at('2024-01-07T12:00:00Z'))).toBe(at('2024-01-01T00:00:00Z')); // a Sunday: the week of Monday 1st
    const quarter = calendarRounding(calendarInterval('quarter', 'x'), UTC, 0);
    expect(quarter.round(at('2024-05-17T00:00:00Z'))).toBe(at('2024-04-01T00:00:00Z'));
    expect(quarter.next(at('2024-10-01T00:00:00Z'))).toBe(at('2025-01-01T00:00:00Z'));
    const year = calendarRounding(calendarInterval('year', 'x'), UTC, 0);
    expect(year.round(at('2024-05-17T00:00:00Z'))).toBe(at('2024-01-01T00:00:00Z'));
  });

  it('rounds in the time zone: a day in Paris starts at local midnight, across DST', () => {
    const day = calendarRounding(calendarInterval('day', 'x'), parseTimeZone('Europe/Paris', 'x'), 0);
    expect(day.round(at('2024-01-01T22:30:00Z'))).toBe(at('2023-12-31T23:00:00Z'));
    expect(day.round(at('2024-01-01T23:30:00Z'))).toBe(at('2024-01-01T23:00:00Z'));
    expect(day.round(at('2024-07-01T21:30:00Z'))).toBe(at('2024-06-30T22:00:00Z'));
    // 2024-03-31: clocks go forward, the day is 23 hours long
    expect(day.next(at('2024-03-30T23:00:00Z'))).toBe(at('2024-03-31T22:00:00Z'));
  });

  it('shifts buckets by the offset', () => {
    const day = calendarRounding(calendarInterval('1d', 'x'), UTC, 6 * 3_600_000);
    expect(day.round(at('2024-01-02T05:00:00Z'))).toBe(at('2024-01-01T06:00:00Z'));
    expect(day.round(at('2024-01-02T07:00:00Z'))).toBe(at('2024-01-02T06:00:00Z'));
    expect(day.next(at('2024-01-02T06:00:00Z'))).toBe(at('2024-01-03T06:00:00Z'));
  });

  it('refuses what is no calendar unit', () => {
    expect(() => calendarInterval('2d', 'aggs.h')).toThrow(InvalidQueryError);
    expect(() => calendarInterval('2d', 'aggs.h')).toThrow(/could not be parsed as a calendar interval/);
  });
});

describe('fixed rounding', () => {
  it('counts multiples of the interval from the epoch', () => {
    const r = fixedRounding(fixedInterval('90m', 'x'), UTC, 0);
    expect(r.round(at('2024-01-01T01:40:00Z'))).toBe(at('2024-01-01T01:30:00Z'));
    expect(r.next(at('2024-01-01T01:30:00Z'))).toBe(at('2024-01-01T03:00:00Z'));
  });

  it('counts in local time with a zone', () => {
    const r = fixedRounding(fixedInterval('1d', 'x'), parseTimeZone('+02:00', 'x'), 0);
    expect(r.round(at('2024-01-01T23:00:00Z'))).toBe(at('2024-01-01T22:00:00Z'));
  });

  it('refuses calendar units and nonsense', () => {
    for (const bad of ['1M', '1y', '1w', '0d', 'day']) expect(() => fixedInterval(bad, 'aggs.h')).toThrow(InvalidQueryError);
  });
});
