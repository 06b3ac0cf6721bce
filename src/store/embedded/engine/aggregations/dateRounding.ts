/**
 * The bucket keys of a date_histogram (and of a composite's date_histogram source): Elasticsearch's
 * Rounding (org.elasticsearch.common.Rounding) for `calendar_interval` and `fixed_interval`, in a
 * time zone, with an `offset`.
 *
 * - Calendar intervals (`minute`/`1m`, `hour`/`1h`, `day`/`1d`, `week`/`1w`, `month`/`1M`,
 *   `quarter`/`1q`, `year`/`1y`; one unit only) round down to the start of the unit in local time
 *   (weeks start on Monday, quarters in January, April, July, October), which is then taken back to
 *   UTC: a day bucket in Europe/Paris starts at local midnight.
 * - Fixed intervals (`90m`, `2d`, `30s`, `500ms`: units ms s m h d, any amount) are multiples of the
 *   interval counted from the epoch in local time (TimeIntervalRounding).
 * - `offset` (`+6h`, `-1d`) shifts every bucket start: key = round(value - offset) + offset.
 */
import { InvalidQueryError } from '../../../port';
import { MILLIS_PER_DAY, TimeZone, civilFromDays, daysFromCivil, localToUtc } from '../dates';
import { parseTimeValueMillis } from './timeValue';

type CalendarUnit = 'minute' | 'hour' | 'day' | 'week' | 'month' | 'quarter' | 'year';

const CALENDAR: Record<string, CalendarUnit> = {
  minute: 'minute',
  '1m': 'minute',
  hour: 'hour',
  '1h': 'hour',
  day: 'day',
  '1d': 'day',
  week: 'week',
  '1w': 'week',
  month: 'month',
  '1M': 'month',
  quarter: 'quarter',
  '1q': 'quarter',
  year: 'year',
  '1y': 'year',
};

export interface DateRounding {
  /** The key of the bucket holding a UTC instant. */
  round(utc: number): number;
  /** The key of the bucket after the one whose key is given. */
  next(key: number): number;
  /** An upper bound on the width of a bucket, in ms (to count buckets between two keys). */
  readonly minWidth: number;
}

export function calendarInterval(text: string, where: string): CalendarUnit {
  const unit = CALENDAR[text];
  if (unit === undefined) throw new InvalidQueryError(`The supplied interval [${text}] could not be parsed as a calendar interval (at ${where}): use minute, hour, day, week, month, quarter, year or 1m, 1h, 1d, 1w, 1M, 1q, 1y`);
  return unit;
}

export function fixedInterval(text: string, where: string): number {
  const ms = /^\d+(ms|s|m|h|d)$/.test(text) ? parseTimeValueMillis(text) : null;
  if (ms === null || ms <= 0) throw new InvalidQueryError(`failed to parse setting [date_histogram.fixedInterval] with value [${text}] as a time value (at ${where}): use an amount and one of the units ms, s, m, h, d (e.g. 90m, 2d)`);
  return ms;
}

function floorLocal(local: number, unit: CalendarUnit): number {
  const days = Math.floor(local / MILLIS_PER_DAY);
  switch (unit) {
    case 'minute':
      return Math.floor(local / 60_000) * 60_000;
    case 'hour':
      return Math.floor(local / 3_600_000) * 3_600_000;
    case 'day':
      return days * MILLIS_PER_DAY;
    case 'week':
      return (days - ((((days + 3) % 7) + 7) % 7)) * MILLIS_PER_DAY;
    case 'month': {
      const { year, month } = civilFromDays(days);
      return daysFromCivil(year, month, 1) * MILLIS_PER_DAY;
    }
    case 'quarter': {
      const { year, month } = civilFromDays(days);
      return daysFromCivil(year, month - ((month - 1) % 3), 1) * MILLIS_PER_DAY;
    }
    case 'year':
      return daysFromCivil(civilFromDays(days).year, 1, 1) * MILLIS_PER_DAY;
  }
}

function addUnit(localStart: number, unit: CalendarUnit): number {
  switch (unit) {
    case 'minute':
      return localStart + 60_000;
    case 'hour':
      return localStart + 3_600_000;
    case 'day':
      return localStart + MILLIS_PER_DAY;
    case 'week':
      return localStart + 7 * MILLIS_PER_DAY;
    default: {
      const { year, month } = civilFromDays(Math.floor(localStart / MILLIS_PER_DAY));
      const months = unit === 'month' ? 1 : unit === 'quarter' ? 3 : 12;
      const total = year * 12 + month - 1 + months;
      return daysFromCivil(Math.floor(total / 12), (total % 12) + 1, 1) * MILLIS_PER_DAY;
    }
  }
}

const MIN_WIDTH: Record<CalendarUnit, number> = {
  minute: 60_000,
  hour: 3_600_000 / 2, // an hour may be cut by half-hour DST shifts
  day: MILLIS_PER_DAY - 3_600_000,
  week: 7 * MILLIS_PER_DAY - 3_600_000,
  month: 28 * MILLIS_PER_DAY - 3_600_000,
  quarter: 89 * MILLIS_PER_DAY - 3_600_000,
  year: 365 * MILLIS_PER_DAY - 3_600_000,
};

export function calendarRounding(unit: CalendarUnit, zone: TimeZone, offset: number): DateRounding {
  const round = (utc: number) => localToUtc(floorLocal(utc - offset + zone.offsetAt(utc - offset), unit), zone) + offset;
  return {
    round,
    next: (key) => {
      const start = key - offset;
      return localToUtc(addUnit(floorLocal(start + zone.offsetAt(start), unit), unit), zone) + offset;
    },
    minWidth: MIN_WIDTH[unit],
  };
}

export function fixedRounding(interval: number, zone: TimeZone, offset: number): DateRounding {
  const round = (utc: number) => {
    const local = utc - offset + zone.offsetAt(utc - offset);
    return localToUtc(Math.floor(local / interval) * interval, zone) + offset;
  };
  return { round, next: (key) => round(key + interval), minWidth: Math.max(1, interval - 3_600_000) };
}
