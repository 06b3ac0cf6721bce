/**
 * minimum_should_match, as Elasticsearch's Queries.calculateMinShouldMatch computes it from the
 * number of SHOULD clauses: an integer ("2"), a negative integer ("-1": all but one), a percentage
 * ("75%", rounded down, computed in float as Elasticsearch does), a negative percentage ("-25%"), or
 * conditional specs ("3<90%": up to 3 clauses all are required, above that 90%). The result is not
 * capped: asking for more clauses than there are matches nothing.
 */
import { BooleanQuery, booleanQuery } from '../lucene/query';
import { describe } from '../json';
import { invalid } from './params';

const f = Math.fround;

class SpecError extends Error {}

/** Java's Integer.parseInt. */
function parseJavaInt(text: string): number {
  if (!/^[+-]?\d+$/.test(text)) throw new SpecError(text);
  const n = Number(text);
  if (n > 2147483647 || n < -2147483648) throw new SpecError(text);
  return n;
}

/** Java's (int) cast of a float: truncation, NaN to 0, saturating. */
function toJavaInt(value: number): number {
  if (Number.isNaN(value)) return 0;
  return Math.max(-2147483648, Math.min(2147483647, Math.trunc(value)));
}

export function calculateMinShouldMatch(optionalClauseCount: number, spec: string): number {
  let result = optionalClauseCount;
  // eslint-disable-next-line no-control-regex
  spec = spec.replace(/^[\x00-\x20]+|[\x00-\x20]+$/g, ''); // String.trim
  if (spec.includes('<')) {
    spec = spec.replace(/(\s+<\s*)|(\s*<\s+)/g, '<');
    for (const s of spec.split(' ')) {
      const parts = s.split('<');
      if (parts.length < 2) throw new SpecError(s);
      const upperBound = parseJavaInt(parts[0]);
      if (optionalClauseCount <= upperBound) return result;
      result = calculateMinShouldMatch(optionalClauseCount, parts[1]);
    }
    return result;
  }
  if (spec.includes('%')) {
    const percent = parseJavaInt(spec.slice(0, -1));
    const calc = f(f(Math.imul(result, percent)) * f(1 / 100));
    result = calc < 0 ? result + toJavaInt(calc) : toJavaInt(calc);
  } else {
    const calc = parseJavaInt(spec);
    result = calc < 0 ? result + calc : calc;
  }
  return result < 0 ? 0 : result;
}

/** A minimum_should_match parameter (a string or an integer), checked once at parse time. */
export function readMinimumShouldMatch(clause: string, value: unknown, path: string): string {
  let spec: string;
  if (typeof value === 'string') spec = value;
  else if (typeof value === 'number' && Number.isFinite(value)) spec = String(value);
  else throw invalid(`[${clause}] parameter "minimum_should_match" at ${path} must be a string or an integer, got ${describe(value)}`);
  try {
    for (const count of [0, 1, 2, 3, 5, 10, 100]) calculateMinShouldMatch(count, spec);
  } catch (e) {
    if (e instanceof SpecError) throw invalid(`[${clause}] invalid minimum_should_match ${JSON.stringify(spec)} at ${path}`);
    throw e;
  }
  return spec;
}

/** Queries.applyMinimumShouldMatch: counts the SHOULD clauses and sets the minimum when positive. */
export function applyMinimumShouldMatch(query: BooleanQuery, spec: string | null): BooleanQuery {
  if (spec === null) return query;
  const optional = query.clauses.filter((c) => c.occur === 'should').length;
  const msm = calculateMinShouldMatch(optional, spec);
  return msm > 0 ? booleanQuery(query.clauses, msm) : query;
}
