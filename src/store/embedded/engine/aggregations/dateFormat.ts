/**
 * Date formats of aggregation answers (`key_as_string`, `value_as_string`, `from_as_string`) and of
 * the `format` parameter, as Elasticsearch's DateFormatter prints them (locale ROOT, ISO chronology):
 *
 * - the field's default, `strict_date_optional_time`, prints `2024-01-01T00:00:00.000Z` (an offset
 *   `+01:00` in another time zone, `Z` when the offset is zero);
 * - named formats: `epoch_millis`, `epoch_second`, `date_optional_time`, `date`, `date_time`,
 *   `date_time_no_millis`, `date_hour`, `date_hour_minute`, `date_hour_minute_second`,
 *   `date_hour_minute_second_millis`, `year`, `year_month`, `year_month_day`, `basic_date`,
 *   `hour_minute`, `hour_minute_second`, `time`, `ordinal_date` (each also with `strict_`);
 * - Java DateTimeFormatter patterns of the letters y u Y M L d D H h k K m s S a E Z X x and quoted
 *   text (`yyyy-MM-dd`, `MMM yyyy`, `dd/MM/yyyy HH:mm`). Several formats joined with `||` print with
 *   the first and parse with each in turn.
 *
 * Parsing (date_range bounds, extended_bounds, composite `after`) accepts the named formats above and
 * patterns made of numeric letters (y u M d H m s S) and literal text. Written by hand: no npm library
 * implements Java's DateTimeFormatter patterns (date-fns's tokens differ: `D`, `Y`, `u`, `a`, `X`).
 */
import { InvalidQueryError } from '../../../port';
import { MILLIS_PER_DAY, TimeZone, UTC, civilFromDays, daysFromCivil, localToUtc, parseDateValue } from '../dates';

const NAMED: Record<string, string> = {
  strict_date_optional_time: "yyyy-MM-dd'T'HH:mm:ss.SSSXXX",
  date_optional_time: "yyyy-MM-dd'T'HH:mm:ss.SSSXXX",
  strict_date_optional_time_nanos: "yyyy-MM-dd'T'HH:mm:ss.SSSXXX",
  date_time: "yyyy-MM-dd'T'HH:mm:ss.SSSXXX",
  date_time_no_millis: "yyyy-MM-dd'T'HH:mm:ssXXX",
  date: 'yyyy-MM-dd',
  year_month_day: 'yyyy-MM-dd',
  year_month: 'yyyy-MM',
  year: 'yyyy',
  date_hour: "yyyy-MM-dd'T'HH",
  date_hour_minute: "yyyy-MM-dd'T'HH:mm",
  date_hour_minute_second: "yyyy-MM-dd'T'HH:mm:ss",
  date_hour_minute_second_millis: "yyyy-MM-dd'T'HH:mm:ss.SSS",
  date_hour_minute_second_fraction: "yyyy-MM-dd'T'HH:mm:ss.SSS",
  basic_date: 'yyyyMMdd',
  hour_minute: 'HH:mm',
  hour_minute_second: 'HH:mm:ss',
  time: 'HH:mm:ss.SSSXXX',
  ordinal_date: 'yyyy-DDD',
};

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const LETTERS = 'yuYMLdDHhkKmsSaEZXx';
const PARSE_LETTERS = 'yuMdHmsS';

type Token = { letter: string; count: number } | { text: string };

/** One format of a `format` parameter: a printer, and a parser when the format can parse. */
export interface DateFormat {
  readonly pattern: string;
  print(millis: number, zone: TimeZone): string;
  /** Epoch millis of a text in this format (local fields in `zone`), or null when it does not fit. */
  parse(text: string, zone: TimeZone): number | null;
}

function tokenize(pattern: string, where: string): Token[] {
  const tokens: Token[] = [];
  for (let i = 0; i < pattern.length; ) {
    const c = pattern[i];
    if (c === "'") {
      const end = pattern.indexOf("'", i + 1);
      if (end === -1) throw new InvalidQueryError(`unterminated quote in date format ${JSON.stringify(pattern)} at ${where}`);
      tokens.push({ text: end === i + 1 ? "'" : pattern.slice(i + 1, end) });
      i = end + 1;
    } else if (/[A-Za-z]/.test(c)) {
      if (!LETTERS.includes(c)) throw new InvalidQueryError(`date format letter ${JSON.stringify(c)} of ${JSON.stringify(pattern)} is not supported at ${where}`);
      let n = 1;
      while (pattern[i + n] === c) n++;
      tokens.push({ letter: c, count: n });
      i += n;
    } else {
      tokens.push({ text: c });
      i++;
    }
  }
  return tokens;
}

const pad = (n: number, width: number) => (n < 0 ? '-' + String(-n).padStart(width, '0') : String(n).padStart(width, '0'));

function offsetText(offsetMs: number, letter: string, count: number): string {
  if (offsetMs === 0 && letter === 'X') return 'Z';
  const sign = offsetMs < 0 ? '-' : '+';
  const minutes = Math.abs(offsetMs) / 60_000;
  const hh = pad(Math.floor(minutes / 60), 2);
  const mm = pad(minutes % 60, 2);
  if (letter === 'Z') return count === 4 ? `GMT${sign}${hh}:${mm}` : `${sign}${hh}${mm}`;
  if (count === 1) return `${sign}${hh}${mm === '00' ? '' : mm}`;
  return count === 2 || count === 4 ? `${sign}${hh}${mm}` : `${sign}${hh}:${mm}`;
}

function printTokens(tokens: Token[], millis: number, zone: TimeZone): string {
  const offset = zone.offsetAt(millis);
  const local = millis + offset;
  const days = Math.floor(local / MILLIS_PER_DAY);
  const timeOfDay = local - days * MILLIS_PER_DAY;
  const { year, month, day } = civilFromDays(days);
  const hour = Math.floor(timeOfDay / 3_600_000);
  const minute = Math.floor(timeOfDay / 60_000) % 60;
  const second = Math.floor(timeOfDay / 1000) % 60;
  const milli = timeOfDay % 1000;
  let out = '';
  for (const token of tokens) {
    if ('text' in token) {
      out += token.text;
      continue;
    }
    const n = token.count;
    switch (token.letter) {
      case 'y':
      case 'u':
      case 'Y':
        out += n === 2 ? pad(((year % 100) + 100) % 100, 2) : pad(year, n);
        break;
      case 'M':
      case 'L':
        out += n >= 4 ? MONTHS[month - 1] : n === 3 ? MONTHS[month - 1].slice(0, 3) : pad(month, n);
        break;
      case 'd':
        out += pad(day, n);
        break;
      case 'D':
        out += pad(days - daysFromCivil(year, 1, 1) + 1, n);
        break;
      case 'H':
        out += pad(hour, n);
        break;
      case 'k':
        out += pad(hour === 0 ? 24 : hour, n);
        break;
      case 'h':
        out += pad(hour % 12 === 0 ? 12 : hour % 12, n);
        break;
      case 'K':
        out += pad(hour % 12, n);
        break;
      case 'm':
        out += pad(minute, n);
        break;
      case 's':
        out += pad(second, n);
        break;
      case 'S':
        out += pad(milli, 3).padEnd(n, '0').slice(0, n);
        break;
      case 'a':
        out += hour < 12 ? 'AM' : 'PM';
        break;
      case 'E': {
        const name = DAYS[(((days + 3) % 7) + 7) % 7];
        out += n >= 4 ? name : name.slice(0, 3);
        break;
      }
      default:
        out += offsetText(offset, token.letter, n);
    }
  }
  return out;
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A parser for patterns of numeric letters and literal text; null for other patterns. */
function patternParser(tokens: Token[]): ((text: string, zone: TimeZone) => number | null) | null {
  let source = '^';
  const fields: string[] = [];
  for (const token of tokens) {
    if ('text' in token) {
      source += escapeRegex(token.text);
      continue;
    }
    if (!PARSE_LETTERS.includes(token.letter)) return null;
    const year = token.letter === 'y' || token.letter === 'u';
    source += year && token.count !== 2 ? `([+-]?\\d{${Math.min(token.count, 4)},9})` : token.letter === 'S' ? `(\\d{1,9})` : `(\\d{${token.count === 1 ? '1,2' : token.count}})`;
    fields.push(year ? 'y' : token.letter);
  }
  const regex = new RegExp(`${source}$`);
  return (text, zone) => {
    const m = regex.exec(text);
    if (m === null) return null;
    const v: Record<string, number> = { y: 1970, M: 1, d: 1, H: 0, m: 0, s: 0, S: 0 };
    fields.forEach((field, i) => {
      v[field] = field === 'S' ? Number(m[i + 1].padEnd(3, '0').slice(0, 3)) : Number(m[i + 1]);
    });
    if (v.M < 1 || v.M > 12 || v.d < 1 || v.d > 31 || v.H > 23 || v.m > 59 || v.s > 59) return null;
    const local = daysFromCivil(v.y, v.M, v.d) * MILLIS_PER_DAY + v.H * 3_600_000 + v.m * 60_000 + v.s * 1000 + v.S;
    return localToUtc(local, zone);
  };
}

function epochFormat(pattern: string, unit: number): DateFormat {
  return {
    pattern,
    print: (millis) => (unit === 1 ? String(Math.trunc(millis)) : String(millis / unit)),
    parse: (text) => (/^-?\d+(\.\d+)?$/.test(text) ? Math.trunc(Number(text) * unit) : null),
  };
}

function oneFormat(name: string, where: string): DateFormat {
  const bare = name.startsWith('strict_') && NAMED[name] === undefined ? name.slice(7) : name;
  if (bare === 'epoch_millis') return epochFormat(name, 1);
  if (bare === 'epoch_second') return epochFormat(name, 1000);
  const named = NAMED[bare];
  const tokens = tokenize(named ?? name, where);
  const parser = named !== undefined && bare.includes('optional_time') ? (text: string, zone: TimeZone) => parseOptionalTime(text, zone) : patternParser(tokens);
  return {
    pattern: name,
    print: (millis, zone) => printTokens(tokens, millis, zone),
    parse: (text, zone) => (parser === null ? null : parser(text, zone)),
  };
}

/** strict_date_optional_time: the engine's date parser, local fields in the zone when the text has no offset. */
function parseOptionalTime(text: string, zone: TimeZone): number | null {
  const utc = parseDateValue(text);
  if (utc === null || typeof text !== 'string') return null;
  if (/(Z|[+-]\d{2}(:?\d{2})?)$/.test(text) && /T/.test(text)) return utc;
  return zone === UTC ? utc : localToUtc(utc, zone);
}

/** A `format` parameter: one format or several joined by `||` (printing uses the first). */
export class DateFormats {
  private readonly formats: DateFormat[];

  constructor(
    readonly text: string,
    where: string,
  ) {
    const names = text.split('||');
    if (names.some((n) => n.trim() === '')) throw new InvalidQueryError(`empty date format in ${JSON.stringify(text)} at ${where}`);
    this.formats = names.map((n) => oneFormat(n.trim(), where));
  }

  print(millis: number, zone: TimeZone = UTC): string {
    return this.formats[0].print(millis, zone);
  }

  /** Epoch millis of a date written in one of the formats, or null. */
  parse(text: string, zone: TimeZone = UTC): number | null {
    for (const format of this.formats) {
      const millis = format.parse(text, zone);
      if (millis !== null) return millis;
    }
    return null;
  }
}

/** A date field's own format (what key_as_string uses without a `format` parameter). */
export const DEFAULT_DATE_FORMAT = new DateFormats('strict_date_optional_time||epoch_millis', 'mapping');
