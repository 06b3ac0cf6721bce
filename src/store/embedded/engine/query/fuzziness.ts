/**
 * `fuzziness`, as Elasticsearch 8's Fuzziness reads and applies it (org.elasticsearch.common.unit
 * .Fuzziness: parse, fromString, fromEdits, asDistance):
 *
 * - a JSON number is an edit distance, truncated to an integer as Jackson's intValue does
 *   (1.9 is 1), and must then be 0, 1 or 2;
 * - a string: `AUTO` (any case), `AUTO:low,high` (two non-negative integers, low <= high), or a
 *   number as Java's Float.parseFloat reads it ("1", "2.0", "1e0", "1f") without a fractional part;
 * - `AUTO` gives 0 edits to terms shorter than `low` code points (3 by default), 1 below `high`
 *   (6), else 2.
 */
import { describe } from '../json';
import { invalid } from './params';

export type Fuzziness = { readonly auto: true; readonly low: number; readonly high: number } | { readonly auto: false; readonly edits: number };

export const AUTO: Fuzziness = { auto: true, low: 3, high: 6 };

/** Reads a `fuzziness` value of `clause` at `where`; throws InvalidQueryError with Elasticsearch's reason. */
export function readFuzziness(clause: string, value: unknown, where: string): Fuzziness {
  const fail = (reason: string) => invalid(`[${clause}] ${reason} (fuzziness at ${where})`);
  if (typeof value === 'number') {
    // XContentParser.intValue: Jackson truncates a float token, and refuses one outside int
    if (!Number.isFinite(value) || Math.abs(value) >= 2 ** 31) throw fail(`Numeric value (${value}) out of range of int`);
    return fromEdits(Math.trunc(value) + 0, fail);
  }
  if (typeof value !== 'string') throw fail(`Can't parse fuzziness on token: [${tokenName(value)}]`);
  if (value === '') throw fail('fuzziness cannot be null or empty.');
  const upper = value.toUpperCase();
  if (upper === 'AUTO') return AUTO;
  if (upper.startsWith('AUTO:')) return customAuto(upper, fail);
  const parsed = javaParseFloat(upper);
  if (parsed === null) throw fail(`fuzziness cannot be [${value}].`);
  if (parsed % 1 > 0) throw fail(`fuzziness needs to be one of 0.0, 1.0 or 2.0 but was ${javaFloatString(parsed)}`);
  return fromEdits(javaFloatToInt(parsed), fail);
}

/** Fuzziness.asDistance: the edits allowed for a term (its length in code points for AUTO). */
export function editsFor(fuzziness: Fuzziness, term: string): number {
  if (!fuzziness.auto) return Math.min(2, fuzziness.edits);
  let length = 0;
  for (const _ of term) length++;
  if (length < fuzziness.low) return 0;
  return length < fuzziness.high ? 1 : 2;
}

function fromEdits(edits: number, fail: (reason: string) => Error): Fuzziness {
  if (edits !== 0 && edits !== 1 && edits !== 2) throw fail(`Valid edit distances are [0, 1, 2] but was [${edits}]`);
  return { auto: false, edits };
}

/** Fuzziness.parseCustomAuto, on the upper-cased text. */
function customAuto(text: string, fail: (reason: string) => Error): Fuzziness {
  // Java's String.split drops trailing empty strings: "AUTO:3,6," has two parts
  const parts = text.slice('AUTO:'.length).split(',');
  while (parts.length > 0 && parts[parts.length - 1] === '') parts.pop();
  if (parts.length !== 2) throw fail('failed to find low and high distance values');
  const [low, high] = parts.map(javaParseInt);
  if (low === null || high === null) throw fail(`failed to parse [${text}] as a "auto:int,int"`);
  if (low < 0 || high < 0 || low > high) throw fail(`fuzziness wrongly configured [${text}]. Must be 0 < lower value <= higher value.`);
  return { auto: true, low, high };
}

/** Integer.parseInt: an optional sign and decimal digits, within int. */
function javaParseInt(text: string): number | null {
  if (!/^[+-]?[0-9]+$/.test(text)) return null;
  const n = Number(text);
  return n >= -(2 ** 31) && n < 2 ** 31 ? n + 0 : null;
}

/**
 * Float.parseFloat on the upper-cased text Fuzziness gives it: surrounding whitespace, a sign, digits
 * with a point, an exponent, an F or D suffix; null where Java throws (upper-cased, "NaN" and
 * "Infinity" no longer parse; hexadecimal floats are not read here).
 */
function javaParseFloat(text: string): number | null {
  const trimmed = text.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '');
  const match = /^([+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:E[+-]?[0-9]+)?)[FD]?$/.exec(trimmed);
  return match === null ? null : Math.fround(Number(match[1]));
}

/** Java's (int) cast of a float: toward zero, saturated at the int range. */
function javaFloatToInt(value: number): number {
  return Math.max(-(2 ** 31), Math.min(2 ** 31 - 1, Math.trunc(value))) + 0;
}

/** Float.toString for the values a fuzziness error shows (the shortest decimal that reads back as the float). */
function javaFloatString(value: number): string {
  for (let digits = 1; digits <= 9; digits++) {
    const text = value.toPrecision(digits);
    if (Math.fround(Number(text)) === value) {
      const plain = String(Number(text));
      return /[.e]/.test(plain) ? plain.replace('e+', 'E').replace('e', 'E') : `${plain}.0`;
    }
  }
  return String(value);
}

function tokenName(value: unknown): string {
  if (value === null) return 'VALUE_NULL';
  if (typeof value === 'boolean') return 'VALUE_BOOLEAN';
  if (Array.isArray(value)) return 'START_ARRAY';
  if (typeof value === 'object') return 'START_OBJECT';
  return describe(value);
}
