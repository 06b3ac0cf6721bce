/**
 * Differential test against the real Lucene: random `intervals` queries (match with max_gaps and
 * ordered, prefix, wildcard, fuzzy, all_of, any_of, and the eight filters, nested) run by the engine
 * and by Lucene 8.7's IntervalQuery (lucene-queries, ScoringOracle.java) over the sources
 * Elasticsearch's IntervalsSourceProvider and IntervalBuilder build, on a seeded corpus: same hits,
 * same float scores (the sloppy frequency through the saturation function). Needs java, javac and
 * the Lucene 8 jars (Debian: `apt-get install -y default-jdk-headless liblucene8-java`); skipped
 * with a message otherwise.
 */
import { SearchIndex } from '../../searchIndex';
import { OracleDoc, iv, q, scoringOracle } from './scoringOracle';

const oracle = scoringOracle();
const available = 'run' in oracle;
if (!available) console.warn(`Skipping the intervals Lucene differential test: ${oracle.missing}.`);
const describeWithLucene = available ? describe : describe.skip;

const WORDS = ['red', 'green', 'blue', 'apple', 'apricot', 'pear', 'plum', 'tree'];

function rng(seed: number): () => number {
  let state = seed;
  return () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

type Json = Record<string, unknown>;
const FILTERS = ['containing', 'contained_by', 'not_containing', 'not_contained_by', 'overlapping', 'not_overlapping', 'before', 'after'] as const;
const LUCENE_FILTER = {
  containing: 'containing',
  contained_by: 'containedby',
  not_containing: 'notcontaining',
  not_contained_by: 'notcontainedby',
  overlapping: 'overlapping',
  not_overlapping: 'nonoverlapping',
  before: 'before',
  after: 'after',
} as const;

/** IntervalBuilder.combineSources, as Elasticsearch writes it. */
function combine(sources: string[], maxGaps: number, ordered: boolean): string {
  if (sources.length === 1) return sources[0];
  if (maxGaps === 0 && ordered) return iv.of('phrase', sources);
  const inner = iv.of(ordered ? 'ordered' : 'unordered', sources);
  return maxGaps === -1 ? inner : iv.maxgaps(maxGaps, inner);
}

/** A random rule, and the Lucene source Elasticsearch builds of it. */
function randomRule(next: () => number, depth: number): [Json, string] {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)];
  const word = () => pick(WORDS);
  const kinds = depth > 0 ? ['match', 'match', 'match', 'prefix', 'wildcard', 'fuzzy', 'all_of', 'any_of'] : ['match', 'match', 'prefix', 'wildcard', 'fuzzy'];
  const kind = pick(kinds);
  const withFilter = (rule: Json, source: string): [Json, string] => {
    if (depth === 0 || next() < 0.6) return [rule, source];
    const type = pick(FILTERS);
    const [inner, innerSource] = randomRule(next, depth - 1);
    const key = Object.keys(rule)[0];
    return [{ [key]: { ...(rule[key] as Json), filter: { [type]: inner } } }, iv.of(LUCENE_FILTER[type], [source, innerSource])];
  };
  switch (kind) {
    case 'match': {
      const words = Array.from({ length: 1 + Math.floor(next() * 3) }, word);
      const ordered = next() < 0.5;
      const maxGaps = pick([-1, -1, 0, 1, 2]);
      const source = words.length === 1 ? iv.term(words[0]) : combine(words.map(iv.term), maxGaps, ordered);
      return withFilter({ match: { query: words.join(' '), ordered, max_gaps: maxGaps } }, source);
    }
    case 'prefix': {
      const p = word().slice(0, 1 + Math.floor(next() * 3));
      return [{ prefix: { prefix: p.toUpperCase() } }, iv.prefix(p)];
    }
    case 'wildcard': {
      const w = word();
      const at = Math.floor(next() * w.length);
      const pattern = next() < 0.5 ? `${w.slice(0, at)}?${w.slice(at + 1)}` : `${w.slice(0, at)}*`;
      return [{ wildcard: { pattern } }, iv.wildcard(pattern)];
    }
    case 'fuzzy': {
      const w = word();
      const at = Math.floor(next() * w.length);
      const typo = `${w.slice(0, at)}x${w.slice(at + 1)}`;
      const edits = typo.length <= 2 ? 0 : typo.length <= 5 ? 1 : 2; // AUTO
      return [{ fuzzy: { term: typo } }, iv.fuzzy(typo, edits, 0, true)];
    }
    case 'all_of': {
      const subs = Array.from({ length: 2 + Math.floor(next() * 2) }, () => randomRule(next, depth - 1));
      const ordered = next() < 0.5;
      const maxGaps = pick([-1, -1, 0, 1, 3]);
      return withFilter({ all_of: { intervals: subs.map(([r]) => r), ordered, max_gaps: maxGaps } }, combine(subs.map(([, s]) => s), maxGaps, ordered));
    }
    default: {
      const subs = Array.from({ length: 2 + Math.floor(next() * 2) }, () => randomRule(next, depth - 1));
      return withFilter({ any_of: { intervals: subs.map(([r]) => r) } }, iv.of('or', subs.map(([, s]) => s)));
    }
  }
}

describeWithLucene('intervals against Lucene 8.7 IntervalQuery', () => {
  afterAll(() => 'run' in oracle && oracle.close());

  it('gives the same hits and float scores for random rules', () => {
    if (!('run' in oracle)) return;
    const next = rng(20261128);
    const docs: [string, string][] = [];
    for (let i = 0; i < 60; i++) docs.push([`d${i}`, Array.from({ length: 3 + Math.floor(next() * 12) }, () => WORDS[Math.floor(next() * WORDS.length)]).join(' ')]);
    const index = new SearchIndex();
    for (const [id, body] of docs) index.put(id, { body });
    const oracleDocs: OracleDoc[] = docs.map(([id, body]) => ({ id, fields: [{ name: 'body', kind: 'text', value: body }] }));
    const cases = Array.from({ length: 400 }, () => {
      const [rule, source] = randomRule(next, 2);
      const boost = next() < 0.2 ? 2.5 : 1;
      return { rule, expr: q.boost(boost, q.intervals('body', source)), boost };
    });
    const answers = oracle.run(
      oracleDocs,
      cases.map((c) => c.expr),
    );
    let matched = 0;
    cases.forEach(({ rule, boost }, i) => {
      const answer = answers[i];
      if (!answer.ok) throw new Error(`${JSON.stringify(rule)}: ${answer.message}`);
      const query = { intervals: { body: { ...rule, ...(boost === 1 ? {} : { boost }) } } };
      const result = index.search({ query, from: 0, size: 100 });
      const label = JSON.stringify(rule);
      expect([label, result.total]).toEqual([label, answer.total]);
      if (answer.total > 0) matched++;
      const ours = new Map(result.hits.map((h) => [h._id, Math.fround(h._score as number)]));
      for (const hit of answer.hits) expect([label, hit.id, ours.get(hit.id)]).toEqual([label, hit.id, Math.fround(hit.score)]);
    });
    // the corpus makes most rules match something
    expect(matched).toBeGreaterThan(150);
  });
});
