/**
 * Syntax flags of the `regexp` query: the values of Lucene 9's RegExp syntax flags, and the
 * `flags` string as Elasticsearch 8's RegexpFlag.resolveValue reads it.
 */

export const RegexpFlag = {
  /** `&`: intersection. */
  INTERSECTION: 0x0001,
  /** `~`: complement. */
  COMPLEMENT: 0x0002,
  /** `#`: the empty language. */
  EMPTY: 0x0004,
  /** `@`: any string. */
  ANYSTRING: 0x0008,
  /** `<name>`: a named automaton (Elasticsearch provides none, so it always fails to compile). */
  AUTOMATON: 0x0010,
  /** `<n-m>`: a numeric interval. */
  INTERVAL: 0x0020,
  /** Every optional syntax (Lucene RegExp.ALL, which includes AUTOMATON). */
  ALL: 0x00ff,
  NONE: 0,
} as const;

/** An unknown name in a `flags` string. */
export class RegexpFlagError extends Error {
  override readonly name = 'RegexpFlagError';
}

/** Names Elasticsearch's RegexpFlag enum knows (AUTOMATON is not one of them). */
const NAMED: Record<string, number> = {
  INTERSECTION: RegexpFlag.INTERSECTION,
  COMPLEMENT: RegexpFlag.COMPLEMENT,
  EMPTY: RegexpFlag.EMPTY,
  ANYSTRING: RegexpFlag.ANYSTRING,
  INTERVAL: RegexpFlag.INTERVAL,
  NONE: RegexpFlag.NONE,
  ALL: RegexpFlag.ALL,
};

/**
 * Elasticsearch's RegexpFlag.resolveValue: `"ALL"` when absent or empty; otherwise `|`-separated,
 * case-insensitive names, empty names skipped, NONE adds nothing, ALL wins at once (whatever
 * follows it). An unknown name throws `Unknown regexp flag [name]`.
 */
export function parseRegexpFlags(text: string | null | undefined): number {
  if (text === null || text === undefined || text === '') return RegexpFlag.ALL;
  let flags: number = RegexpFlag.NONE;
  for (const name of text.split('|')) {
    if (name === '') continue;
    const value = Object.prototype.hasOwnProperty.call(NAMED, name.toUpperCase()) ? NAMED[name.toUpperCase()] : undefined;
    if (value === undefined) throw new RegexpFlagError(`Unknown regexp flag [${name}]`);
    if (value === RegexpFlag.ALL) return RegexpFlag.ALL;
    flags |= value;
  }
  return flags;
}
