/**
 * A terms aggregation's `include` and `exclude` (Elasticsearch's IncludeExclude): a regular
 * expression in Lucene's syntax (compiled by the engine's automaton package, anchored to the whole
 * term; strings only), an array of exact values, or, for `include` only, a partition
 * `{"partition": p, "num_partitions": n}` keeping the terms whose hash falls in partition p (to
 * page through many terms in n requests: murmur3 of the term's UTF-8 bytes with seed 31 for strings,
 * BitMixer.mix64 for numbers, as Elasticsearch hashes them). A term is kept when it is included (or
 * nothing is) and not excluded.
 */
import { InvalidQueryError } from '../../../port';
import { RegexpSyntaxError, RunAutomaton, TooComplexError, compileRegexp } from '../automaton';
import { describe, hasOwn, isPlainObject } from '../json';
import { floorMod, mix64, murmurhash3x86_32 } from './murmur3';
import { at, invalid } from './params';

type Part =
  | { kind: 'regex'; automaton: RunAutomaton }
  | { kind: 'values'; values: readonly (string | number | boolean)[] }
  | { kind: 'partition'; partition: number; of: number };

export interface TermFilter {
  acceptString(term: string): boolean;
  acceptNumber(value: number, asString: string): boolean;
  /** Whether it holds a regular expression (refused on numeric fields). */
  readonly regex: boolean;
}

function regex(pattern: string, where: string): Part {
  try {
    return { kind: 'regex', automaton: compileRegexp(pattern) };
  } catch (err) {
    if (err instanceof RegexpSyntaxError || err instanceof TooComplexError) throw new InvalidQueryError(`invalid regular expression at ${where}: ${err.message}`);
    throw err;
  }
}

function values(list: unknown[], where: string): Part {
  return {
    kind: 'values',
    values: list.map((v, i) => {
      if (typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v))) return v;
      throw invalid(`value at ${where}[${i}] must be a string, a number or a boolean, got ${describe(v)}`);
    }),
  };
}

function parsePart(value: unknown, where: string, partitionAllowed: boolean): Part {
  if (typeof value === 'string') return regex(value, where);
  if (Array.isArray(value)) return values(value, where);
  if (partitionAllowed && isPlainObject(value)) {
    for (const key of Object.keys(value)) {
      if (key !== 'partition' && key !== 'num_partitions') throw invalid(`Unknown parameter in Include/Exclude clause: ${key} (at ${where})`);
    }
    if (!hasOwn(value, 'partition')) throw invalid(`Missing [partition] parameter for partition-based include (at ${where})`);
    if (!hasOwn(value, 'num_partitions')) throw invalid(`Missing [num_partitions] parameter for partition-based include (at ${where})`);
    const partition = value.partition;
    const of = value.num_partitions;
    if (typeof of !== 'number' || !Number.isInteger(of) || of < 1 || of > 2147483647) throw invalid(`[num_partitions] at ${where} must be a positive integer, got ${describe(of)}`);
    if (typeof partition !== 'number' || !Number.isInteger(partition) || partition < 0 || partition >= of) throw invalid(`Partition must be >=0 and < numPartition which is ${of} (at ${where})`);
    return { kind: 'partition', partition, of };
  }
  throw invalid(`${partitionAllowed ? 'include' : 'exclude'} at ${where} must be a regular expression, an array of values${partitionAllowed ? ' or {"partition", "num_partitions"}' : ''}, got ${describe(value)}`);
}

function acceptsString(part: Part, term: string): boolean {
  switch (part.kind) {
    case 'regex':
      return part.automaton.run(term);
    case 'values':
      return part.values.some((v) => String(v) === term);
    case 'partition':
      return floorMod(murmurhash3x86_32(new Uint8Array(Buffer.from(term, 'utf8')), 31), part.of) === part.partition;
  }
}

function acceptsNumber(part: Part, value: number, asString: string): boolean {
  switch (part.kind) {
    case 'regex':
      return false;
    case 'values':
      return part.values.some((v) => (typeof v === 'number' ? v === value : v === asString || Number(v) === value));
    case 'partition':
      return floorMod(mix64(BigInt(Math.trunc(value))), part.of) === part.partition;
  }
}

/** The filter of a terms aggregation's body, or null when it has neither include nor exclude. */
export function parseIncludeExclude(body: Record<string, unknown>, where: string): TermFilter | null {
  const include = hasOwn(body, 'include') ? parsePart(body.include, at(where, 'include'), true) : null;
  const exclude = hasOwn(body, 'exclude') ? parsePart(body.exclude, at(where, 'exclude'), false) : null;
  if (include === null && exclude === null) return null;
  if (include?.kind === 'partition' && exclude !== null) throw invalid(`Cannot specify any excludes when using a partition-based include (at ${where})`);
  return {
    regex: include?.kind === 'regex' || exclude?.kind === 'regex',
    acceptString: (term) => (include === null || acceptsString(include, term)) && (exclude === null || !acceptsString(exclude, term)),
    acceptNumber: (value, asString) => (include === null || acceptsNumber(include, value, asString)) && (exclude === null || !acceptsNumber(exclude, value, asString)),
  };
}
