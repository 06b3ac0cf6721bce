/**
 * The abusive requests of bench:abuse: the costliest searches we could build against the corpus (its
 * names include 40 `a`s followed by a number, as in the reproduction; a few long entities of
 * their own to highlight, longDocs.ts), and bodies that the gateway should refuse fast. Each costly body carries a boost that changes with every request
 * (1.00000001, 1.00000002, ...): it changes neither what is matched nor what it costs, but makes every
 * request a new one for the request cache, as an attacker's variations would.
 */
import { vocabulary } from '../lib/corpus';
import { LONG_CHARS, LONG_DOCS, LONG_PLURAL, frequentWords } from './longDocs';

export const SEARCH_PATH = '/v4/entity/things/search';
/** The prefix of the long names of the corpus (every fifth entity's name is it followed by its number). */
export const LONG_A = 'a'.repeat(40);
const PATTERN = '*a*a*a*a*a*a*a*a*a*a*b';
const NONCE = '@nonce@';

export interface AbuseKind {
  name: string;
  /** What the target engine should answer. */
  expect: string;
  path: string;
  /** The body of the n-th request of the run (n makes it unique, see above). */
  body(n: number): string;
  bytes: number;
}

const boost = (n: number): string => (1 + (n % 1e8) / 1e8).toFixed(8);

function kind(name: string, expect: string, query: object | string, path = SEARCH_PATH): AbuseKind {
  const text = typeof query === 'string' ? query : JSON.stringify(query);
  const [before, after] = text.split(`"${NONCE}"`);
  return { name, expect, path, body: after === undefined ? () => before : (n) => before + boost(n) + after, bytes: Buffer.byteLength(text) };
}

/** `levels` bools nested in `must`, the outermost boosted, around `leaf`; `filter(level)` adds a filter at each level. */
function nested(levels: number, leaf: object, filter?: (level: number) => object): object {
  let query = leaf;
  for (let level = levels - 1; level >= 0; level--) {
    query = { bool: { must: [query], ...(filter ? { filter: [filter(level)] } : {}), ...(level === 0 ? { boost: NONCE } : {}) } };
  }
  return query;
}

const regexp = (value: string) => ({ query: { regexp: { 'name.keyword': { value, boost: NONCE } } } });

/** The abusive requests, or those whose name matches `only` (BENCH_KINDS, a regular expression, case-insensitive). */
export function abuseKinds(only = process.env.BENCH_KINDS): AbuseKind[] {
  const words = vocabulary();
  const manyTerms = [...words, ...Array.from({ length: 65_000 - words.length }, (_, i) => `z${i}`)];
  const all = [
    kind(`wildcard ${PATTERN} on name.keyword`, '200 or 200 timed_out', { query: { wildcard: { 'name.keyword': { value: PATTERN, boost: NONCE } } } }),
    kind(`wildcard ${PATTERN} on name`, '200 or 200 timed_out', { query: { wildcard: { name: { value: PATTERN, boost: NONCE } } } }),
    kind('regexp (a+)+$ on name.keyword', '200 or 200 timed_out', regexp('(a+)+$')),
    kind('regexp .*a.*b.*c.*d.* on name.keyword', '200 or 200 timed_out', regexp('.*a.*b.*c.*d.*')),
    kind('regexp (.*a){20} on name.keyword', '200 or 200 timed_out', regexp('(.*a){20}')),
    kind('regexp [ab]*a[ab]{20} (2^20 states)', '400 too_complex_to_determinize', regexp('[ab]*a[ab]{20}')),
    kind('bool nested 29 deep, a range at each level', '200', { query: nested(29, { match_all: {} }, (level) => ({ range: { rank: { gte: level } } })) }),
    kind('bool of 4,000 should wildcards', '200 or 200 timed_out', {
      query: { bool: { should: Array.from({ length: 4000 }, (_, i) => ({ wildcard: { 'name.keyword': `*a*a*a*${i}` } })), boost: NONCE } },
    }),
    kind('terms with 65,000 values on name', '200', { query: { terms: { name: manyTerms, boost: NONCE } } }),
    kind('match_all sorted on 5 fields, size 10000', '200', {
      query: { match_all: { boost: NONCE } },
      sort: [{ 'name.keyword': 'asc' }, { rank: 'desc' }, { 'description.keyword': 'desc' }, { modified: 'asc' }, { id: 'asc' }],
      from: 0,
      size: 10_000,
    }),
    kind('range over all, sorted, size 10000', '200', { query: { range: { rank: { gte: 0, boost: NONCE } } }, sort: [{ 'description.keyword': 'desc' }, { id: 'asc' }], size: 10_000 }),
    // every long entity highlighted whole: its 500,000 characters analyzed, matched, cut in passages
    kind(
      `highlight ${LONG_DOCS} descriptions of ${LONG_CHARS.toLocaleString('en')} characters`,
      '200',
      { query: { match: { description: { query: frequentWords(), boost: NONCE } } }, _source: ['name'], highlight: { fields: { description: {} } } },
      `/v4/entity/${LONG_PLURAL}/search`,
    ),
    kind('refuse: JSON nested 2,000 deep', '400 body_too_deep', `{"query":{"bool":{"must":${'['.repeat(2000)}${']'.repeat(2000)}}}}`),
    kind('refuse: bool nested 40 deep', '400 query_too_deep', { query: nested(40, { match_all: {} }) }),
    kind('refuse: bool of 5,000 clauses', '400 too_many_clauses', {
      query: { bool: { should: Array.from({ length: 5000 }, (_, i) => ({ term: { 'name.keyword': `v${i}` } })), boost: NONCE } },
    }),
  ];
  if (only === undefined || only === '') return all;
  const pattern = new RegExp(only, 'i');
  const chosen = all.filter((k) => pattern.test(k.name));
  if (chosen.length === 0) throw new Error(`BENCH_KINDS=${only} matches none of: ${all.map((k) => k.name).join('; ')}`);
  return chosen;
}
