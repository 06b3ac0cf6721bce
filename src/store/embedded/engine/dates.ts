/**
 * Dates as Elasticsearch's `date` type sees them: epoch milliseconds (UTC), parsed from
 * `strict_date_optional_time` (yyyy[-MM[-dd[THH[:mm[:ss[.fraction]]]][zone]]], exactly four year
 * digits), the dynamic formats `yyyy/MM/dd` and `yyyy/MM/dd HH:mm:ss`, or `epoch_millis`.
 *
 * Date math (range bounds, term on dates): `now`, `<date>||`, then any sequence of `+N<unit>`,
 * `-N<unit>` and `/<unit>` (units y M w d h H m s), as JavaDateMathParser does. With `roundUp`
 * (the `gt` and `lte` bounds), rounding goes to the last millisecond of the unit and, for a date
 * written without math, missing components are filled as Elasticsearch documents: month 01,
 * day 01, hour 23, minute 59, second 59, fraction .999 (so `lte: "2024-01-05"` includes the whole
 * day). Time zones: `Z`/`UTC`/`GMT`, fixed offsets (`+01:00`, `-0500`, `+01`) and IANA names
 * (`Europe/Paris`, through Intl).
 */
import { InvalidQueryError } from '../../port';

export const MILLIS_PER_DAY = 86_400_000;

/** Days from 1970-01-01 to the given proleptic Gregorian date (month 1..12). */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const mp = (month + 9) % 12;
  const doy = Math.floor((153 * mp + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

export function civilFromDays(days: number): { year: number; month: number; day: number } {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return { year: yoe + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

export function daysInMonth(year: number, month: number): number {
  return [31, isLeapYear(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
}

// ---------------------------------------------------------------------------------------------
// Time zones

export interface TimeZone {
  readonly id: string;
  /** Offset from UTC, in milliseconds, at an instant. */
  offsetAt(utcMillis: number): number;
}

export const UTC: TimeZone = { id: 'UTC', offsetAt: () => 0 };

function fixedZone(id: string, offsetMillis: number): TimeZone {
  return { id, offsetAt: () => offsetMillis };
}

/** `+01:00`, `-0500`, `+01` (hours up to 18) as milliseconds, or null. */
function parseOffset(text: string): number | null {
  const m = /^([+-])(\d{2})(?::?(\d{2}))?$/.exec(text);
  if (m === null) return null;
  const hours = Number(m[2]);
  const minutes = m[3] === undefined ? 0 : Number(m[3]);
  if (hours > 18 || minutes > 59) return null;
  return (m[1] === '-' ? -1 : 1) * (hours * 60 + minutes) * 60_000;
}

const zoneCache = new Map<string, TimeZone>();
const MAX_DATE = 8.64e15;

function ianaZone(name: string): TimeZone | null {
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: name,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      era: 'short',
    });
  } catch {
    return null;
  }
  return {
    id: name,
    offsetAt(instant: number): number {
      // Date covers +-8.64e15 ms; beyond that (absurd date math) use the offset at the limit
      const utcMillis = Number.isFinite(instant) ? Math.max(-MAX_DATE, Math.min(MAX_DATE, instant)) : 0;
      const parts: Record<string, string> = {};
      for (const p of format.formatToParts(new Date(utcMillis))) parts[p.type] = p.value;
      let year = Number(parts.year);
      if (parts.era === 'BC' || parts.era === 'B') year = 1 - year;
      const local =
        daysFromCivil(year, Number(parts.month), Number(parts.day)) * MILLIS_PER_DAY +
        Number(parts.hour) * 3_600_000 +
        Number(parts.minute) * 60_000 +
        Number(parts.second) * 1000;
      const floored = utcMillis - (((utcMillis % 1000) + 1000) % 1000);
      return local - floored;
    },
  };
}

/** A `time_zone` parameter; throws InvalidQueryError for an unknown zone. */
export function parseTimeZone(text: string, where: string): TimeZone {
  const cached = zoneCache.get(text);
  if (cached !== undefined) return cached;
  let zone: TimeZone | null = null;
  const upper = text.toUpperCase();
  if (upper === 'Z' || upper === 'UTC' || upper === 'GMT' || upper === 'UT' || upper === 'ETC/UTC' || upper === 'ETC/GMT') {
    zone = UTC;
  } else {
    const prefixed = /^(?:UTC|GMT|UT)([+-].*)$/i.exec(text);
    const offset = parseOffset(prefixed === null ? text : prefixed[1]);
    if (offset !== null) zone = fixedZone(text, offset);
    else if (/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(text)) zone = ianaZone(text);
  }
  if (zone === null) throw new InvalidQueryError(`unknown time_zone ${JSON.stringify(text)} at ${where}`);
  if (zoneCache.size > 1000) zoneCache.clear();
  zoneCache.set(text, zone);
  return zone;
}

/** The UTC instant of a local wall-clock time in a zone (earlier offset on overlaps, shifted forward in gaps). */
export function localToUtc(localMillis: number, zone: TimeZone): number {
  const first = localMillis - zone.offsetAt(localMillis);
  const second = localMillis - zone.offsetAt(first);
  if (second === first) return first;
  const third = localMillis - zone.offsetAt(second);
  return Math.min(second, third);
}

// ---------------------------------------------------------------------------------------------
// Parsing

interface DateParts {
  year: number;
  month?: number;
  day?: number;
  hour?: number;
  minute?: number;
  second?: number;
  /** Milliseconds of the fraction (nanoseconds truncated). */
  millis?: number;
  /** Zone offset written in the value, in milliseconds. */
  offset?: number;
}

const STRICT_DATE_OPTIONAL_TIME =
  /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:T(\d{2})(?::(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?)?)?$/;
const SLASH_DATE = /^(\d{4})\/(\d{2})\/(\d{2})(?: (\d{2}):(\d{2}):(\d{2}))?(?: ([+-]\d{2}(?::?\d{2})?|Z))?$/;

function num(text: string | undefined): number | undefined {
  return text === undefined ? undefined : Number(text);
}

function zoneOffset(text: string | undefined): number | undefined | null {
  if (text === undefined) return undefined;
  if (text === 'Z') return 0;
  return parseOffset(text);
}

function validParts(parts: DateParts): boolean {
  const { year, month, day, hour, minute, second } = parts;
  if (month !== undefined && (month < 1 || month > 12)) return false;
  if (day !== undefined && (day < 1 || day > daysInMonth(year, month ?? 1))) return false;
  if (hour !== undefined && hour > 23) return false;
  if (minute !== undefined && minute > 59) return false;
  if (second !== undefined && second > 59) return false;
  return true;
}

function parseParts(text: string): DateParts | null {
  let m = STRICT_DATE_OPTIONAL_TIME.exec(text);
  let parts: DateParts | null = null;
  if (m !== null) {
    const offset = zoneOffset(m[8]);
    if (offset === null) return null;
    parts = {
      year: Number(m[1]),
      month: num(m[2]),
      day: num(m[3]),
      hour: num(m[4]),
      minute: num(m[5]),
      second: num(m[6]),
      millis: m[7] === undefined ? undefined : Number(m[7].padEnd(3, '0').slice(0, 3)),
      offset,
    };
  } else {
    m = SLASH_DATE.exec(text);
    if (m === null) return null;
    const offset = zoneOffset(m[7]);
    if (offset === null) return null;
    parts = {
      year: Number(m[1]),
      month: Number(m[2]),
      day: Number(m[3]),
      hour: num(m[4]),
      minute: num(m[5]),
      second: num(m[6]),
      offset,
    };
  }
  return validParts(parts) ? parts : null;
}

function partsToMillis(parts: DateParts, roundUp: boolean, zone: TimeZone): number {
  const local =
    daysFromCivil(parts.year, parts.month ?? 1, parts.day ?? 1) * MILLIS_PER_DAY +
    (parts.hour ?? (roundUp ? 23 : 0)) * 3_600_000 +
    (parts.minute ?? (roundUp ? 59 : 0)) * 60_000 +
    (parts.second ?? (roundUp ? 59 : 0)) * 1000 +
    (parts.millis ?? (roundUp ? 999 : 0));
  return parts.offset !== undefined ? local - parts.offset : localToUtc(local, zone);
}

const EPOCH_MILLIS = /^-?\d{1,19}(?:\.\d+)?$/;

/** True when a string is a number as Java would parse one (such strings are never date-detected). */
export function looksNumeric(text: string): boolean {
  const t = text.trim();
  return t !== '' && /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?[fFdD]?$/.test(t);
}

/**
 * Dynamic date detection (date_detection with the default dynamic_date_formats): a string that is
 * not a number and parses as strict_date_optional_time or yyyy/MM/dd[ HH:mm:ss].
 */
export function isDateString(text: string): boolean {
  return !looksNumeric(text) && parseParts(text) !== null;
}

/** A document value of a date field, as epoch millis; null when it cannot be parsed. */
export function parseDateValue(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? Math.trunc(value) : null;
  if (typeof value !== 'string') return null;
  // (the documents of a bulk write share their `modified`: the last text read is remembered)
  if (value === lastDateText) return lastDateValue;
  lastDateValue = parseDateText(value);
  lastDateText = value;
  return lastDateValue;
}

let lastDateText: string | null = null;
let lastDateValue: number | null = null;

function parseDateText(value: string): number | null {
  const parts = parseParts(value);
  if (parts !== null) return partsToMillis(parts, false, UTC);
  if (EPOCH_MILLIS.test(value)) {
    const n = Math.trunc(Number(value));
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Date math

export interface DateMathOptions {
  now: number;
  roundUp: boolean;
  zone?: TimeZone;
  /** Accepted formats: both when omitted. */
  formats?: { date: boolean; epochMillis: boolean; epochSecond: boolean };
  /** Where the value is, for error messages. */
  where: string;
}

function parseDateTime(text: string, roundUp: boolean, options: DateMathOptions): number {
  const formats = options.formats ?? { date: true, epochMillis: true, epochSecond: false };
  if (formats.date) {
    const parts = parseParts(text);
    if (parts !== null) return partsToMillis(parts, roundUp, options.zone ?? UTC);
  }
  if ((formats.epochMillis || formats.epochSecond) && EPOCH_MILLIS.test(text)) {
    const n = Number(text) * (formats.epochMillis ? 1 : 1000);
    if (Number.isFinite(n)) return Math.trunc(n);
  }
  throw new InvalidQueryError(`failed to parse date ${JSON.stringify(text)} at ${options.where}`);
}

function addMonths(local: number, months: number): number {
  const days = Math.floor(local / MILLIS_PER_DAY);
  const timeOfDay = local - days * MILLIS_PER_DAY;
  const { year, month, day } = civilFromDays(days);
  const total = year * 12 + (month - 1) + months;
  const newYear = Math.floor(total / 12);
  const newMonth = total - newYear * 12 + 1;
  const newDay = Math.min(day, daysInMonth(newYear, newMonth));
  return daysFromCivil(newYear, newMonth, newDay) * MILLIS_PER_DAY + timeOfDay;
}

const UNIT_MILLIS: Record<string, number> = { w: 7 * MILLIS_PER_DAY, d: MILLIS_PER_DAY, h: 3_600_000, H: 3_600_000, m: 60_000, s: 1000 };

function roundDown(local: number, unit: string): number {
  const days = Math.floor(local / MILLIS_PER_DAY);
  switch (unit) {
    case 'y': {
      const { year } = civilFromDays(days);
      return daysFromCivil(year, 1, 1) * MILLIS_PER_DAY;
    }
    case 'M': {
      const { year, month } = civilFromDays(days);
      return daysFromCivil(year, month, 1) * MILLIS_PER_DAY;
    }
    case 'w': {
      const dayOfWeek = (((days + 3) % 7) + 7) % 7; // Monday = 0 (1970-01-01 was a Thursday)
      return (days - dayOfWeek) * MILLIS_PER_DAY;
    }
    default: {
      const size = UNIT_MILLIS[unit];
      return Math.floor(local / size) * size;
    }
  }
}

function addUnits(local: number, unit: string, n: number): number {
  if (unit === 'y') return addMonths(local, 12 * n);
  if (unit === 'M') return addMonths(local, n);
  return local + n * UNIT_MILLIS[unit];
}

function applyMath(math: string, base: number, options: DateMathOptions): number {
  const zone = options.zone ?? UTC;
  const where = options.where;
  let time = base;
  let i = 0;
  while (i < math.length) {
    const c = math[i++];
    let round = false;
    let sign = 1;
    if (c === '/') round = true;
    else if (c === '+') sign = 1;
    else if (c === '-') sign = -1;
    else throw new InvalidQueryError(`operator ${JSON.stringify(c)} not supported for date math ${JSON.stringify(math)} at ${where}`);
    if (i >= math.length) throw new InvalidQueryError(`truncated date math ${JSON.stringify(math)} at ${where}`);
    let n = 1;
    if (math[i] >= '0' && math[i] <= '9') {
      if (round) throw new InvalidQueryError(`rounding \`/\` can only be used on single unit types in ${JSON.stringify(math)} at ${where}`);
      const start = i;
      while (i < math.length && math[i] >= '0' && math[i] <= '9') i++;
      n = Number(math.slice(start, i));
      if (i >= math.length) throw new InvalidQueryError(`truncated date math ${JSON.stringify(math)} at ${where}`);
    }
    const unit = math[i++];
    if (!'yMwdhHms'.includes(unit)) throw new InvalidQueryError(`unit ${JSON.stringify(unit)} not supported for date math ${JSON.stringify(math)} at ${where}`);
    const offset = zone.offsetAt(time);
    const local = time + offset;
    if (round) {
      let rounded = roundDown(local, unit);
      if (options.roundUp) rounded = addUnits(rounded, unit, 1) - 1;
      time = localToUtc(rounded, zone);
    } else {
      time = unit === 'y' || unit === 'M' || unit === 'w' || unit === 'd' ? localToUtc(addUnits(local, unit, sign * n), zone) : time + sign * n * UNIT_MILLIS[unit];
    }
  }
  if (!Number.isFinite(time) || Math.abs(time) > 9.2e18) throw new InvalidQueryError(`date math ${JSON.stringify(math)} out of range at ${where}`);
  return time;
}

/** A range bound or a date term: date math to epoch millis (JavaDateMathParser.parse). */
export function parseDateMath(text: string, options: DateMathOptions): number {
  if (text.startsWith('now')) return applyMath(text.slice(3), options.now, options);
  const index = text.indexOf('||');
  if (index === -1) return parseDateTime(text, options.roundUp, options);
  const base = parseDateTime(text.slice(0, index), false, options);
  return applyMath(text.slice(index + 2), base, options);
}
