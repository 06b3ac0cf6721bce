/**
 * A date field's `format` (Elasticsearch's, `||` between alternatives) compiled to a parser of
 * document values: the built-in names this engine reads (`strict_date_optional_time`,
 * `date_optional_time`, `epoch_millis`, `epoch_second`) and custom java-time patterns made of
 * `yyyy`, `MM`, `dd`, `HH`, `mm`, `ss`, `SSS` (fixed widths; `M`, `d`, `H` one or two digits),
 * quoted literals (`'T'`) and punctuation, read in UTC. Written by hand: the pattern language is
 * Java's DateTimeFormatter subset that Elasticsearch documents, which no npm date library reads
 * with the same strictness (a value must match the whole pattern).
 */
import { daysFromCivil, daysInMonth, parseDateValue } from './dates';

export type DateParser = (value: unknown) => number | null;

const BUILT_IN: Record<string, DateParser> = {
  strict_date_optional_time: (v) => (typeof v === 'string' ? parseDateValue(v) : null),
  date_optional_time: (v) => (typeof v === 'string' ? parseDateValue(v) : null),
  epoch_millis: (v) => epoch(v, 1),
  epoch_second: (v) => epoch(v, 1000),
};

function epoch(value: unknown, unit: number): number | null {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : NaN;
  return Number.isFinite(n) ? Math.trunc(n * unit) : null;
}

/** Pattern letters and the digits each reads: [min, max]. */
const FIELDS: Record<string, { part: 'year' | 'month' | 'day' | 'hour' | 'minute' | 'second' | 'milli'; widths: Record<number, [number, number]> }> = {
  y: { part: 'year', widths: { 4: [4, 4], 2: [2, 2] } },
  M: { part: 'month', widths: { 1: [1, 2], 2: [2, 2] } },
  d: { part: 'day', widths: { 1: [1, 2], 2: [2, 2] } },
  H: { part: 'hour', widths: { 1: [1, 2], 2: [2, 2] } },
  m: { part: 'minute', widths: { 1: [1, 2], 2: [2, 2] } },
  s: { part: 'second', widths: { 1: [1, 2], 2: [2, 2] } },
  S: { part: 'milli', widths: { 3: [3, 3] } },
};

/** Whether the engine can read this format (else its values are left to the store: `compileDateFormat` throws). */
export function isReadableDateFormat(format: string): boolean {
  try {
    compileDateFormat(format);
    return true;
  } catch {
    return false;
  }
}

const compiled = new Map<string, DateParser>();

/** The parser of a `format` (compiled once); throws on a pattern it cannot read. */
export function compileDateFormat(format: string): DateParser {
  let parser = compiled.get(format);
  if (parser === undefined) {
    parser = compileAlternatives(format);
    if (compiled.size >= 1000) compiled.clear();
    compiled.set(format, parser);
  }
  return parser;
}

function compileAlternatives(format: string): DateParser {
  const parsers = format.split('||').map((alt) => BUILT_IN[alt.trim()] ?? compilePattern(alt.trim()));
  return (value) => {
    for (const parse of parsers) {
      const t = parse(value);
      if (t !== null) return t;
    }
    return null;
  };
}

function compilePattern(pattern: string): DateParser {
  if (pattern === '') throw new Error('empty date format');
  let regex = '';
  const parts: string[] = [];
  for (let i = 0; i < pattern.length; ) {
    const c = pattern[i];
    if (c === "'") {
      const end = pattern.indexOf("'", i + 1);
      if (end < 0) throw new Error(`unclosed literal in ${pattern}`);
      regex += escape(pattern.slice(i + 1, end));
      i = end + 1;
    } else if (/[A-Za-z]/.test(c)) {
      let j = i;
      while (pattern[j] === c) j++;
      const field = FIELDS[c];
      const width = field?.widths[j - i];
      if (field === undefined || width === undefined) throw new Error(`unsupported pattern letters ${pattern.slice(i, j)} in ${pattern}`);
      regex += `(\\d{${width[0]},${width[1]}})`;
      parts.push(field.part);
      i = j;
    } else {
      regex += escape(c);
      i++;
    }
  }
  const re = new RegExp(`^${regex}$`);
  return (value) => {
    if (typeof value !== 'string') return null;
    const m = re.exec(value);
    if (m === null) return null;
    const f: Record<string, number> = { year: 1970, month: 1, day: 1, hour: 0, minute: 0, second: 0, milli: 0 };
    parts.forEach((part, k) => (f[part] = Number(m[k + 1])));
    if (f.month < 1 || f.month > 12 || f.day < 1 || f.day > daysInMonth(f.year, f.month) || f.hour > 23 || f.minute > 59 || f.second > 59) return null;
    return daysFromCivil(f.year, f.month, f.day) * 86_400_000 + ((f.hour * 60 + f.minute) * 60 + f.second) * 1000 + f.milli;
  };
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
