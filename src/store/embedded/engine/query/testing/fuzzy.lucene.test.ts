/**
 * Differential test against the real Lucene: the `fuzzy` query (every parameter and rewrite) and
 * `match` with `fuzziness` on a seeded corpus of near-identical words, run by the engine and by
 * Lucene's FuzzyQuery (ScoringOracle.java, LegacyBM25Similarity as Elasticsearch 8 scores). The hits
 * must be the same, their scores equal within 1e-5 relative; where Lucene refuses a query (a
 * negative boost under scoring_boolean), the engine must refuse it too. Needs java, javac and the
 * Lucene 8 jars (Debian: `apt-get install -y default-jdk-headless liblucene8-java`); skipped with a
 * message otherwise.
 *
 * The jar is Lucene 8.7; Elasticsearch 8 runs Lucene 9, which differs in two places, left out here:
 * - with a prefix_length at least the value's length, Lucene 8's FuzzyQuery matches the value only,
 *   Lucene 9's (after LUCENE-9365) the terms that start with it within the edits: not sent;
 * - Lucene 9's BooleanQuery.rewrite flattens the disjunctions the fuzzy queries of a `match` rewrite
 *   into, so that a term two tokens both expand to becomes one clause (boosts summed, the first
 *   one's blended statistics), where Lucene 8 scores it twice: `match` texts whose tokens expand to
 *   a common term are not compared (lucene/expand.test.ts covers that merge).
 */
import { InvalidQueryError } from '../../../../port';
import { SearchIndex } from '../../searchIndex';
import { editsFor, readFuzziness } from '../fuzziness';
import { OracleDoc, ScoringOracle, q, scoringOracle } from './scoringOracle';

const oracle = scoringOracle();
const available = 'run' in oracle;
if (!available) {
  console.warn(`Skipping the fuzzy Lucene differential test: ${oracle.missing}. Install java, javac and Lucene (Debian: apt-get install -y default-jdk-headless liblucene8-java).`);
}
const describeWithLucene = available ? describe : describe.skip;

/** Fixed, for reproducible runs; set FUZZY_SEED to explore others. */
const SEED = Number(process.env.FUZZY_SEED ?? 20251127);

/** A small linear congruential generator: numbers in [0, 1) from a seed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** Edit distance as the optimal string alignment (Lucene's with transpositions), on code points. */
function distance(a: string, b: string): number {
  const x = Array.from(a);
  const y = Array.from(b);
  const d = Array.from({ length: x.length + 1 }, (_, i) => Array.from({ length: y.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= x.length; i++) {
    for (let j = 1; j <= y.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (x[i - 1] === y[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[x.length][y.length];
}

// words a few edits from one another (swaps, doubled letters, accents), of different frequencies
const WORDS = ['a', 'ab', 'ba', 'abc', 'acb', 'bac', 'abcd', 'abdc', 'abcde', 'abced', 'bacde', 'france', 'frnace', 'franse', 'frances', 'finance', 'fiance', 'franc', 'frank', 'ranch', 'kingdom', 'kingdon', 'kindom', 'king', 'kings', 'éclair', 'eclair', 'éclairs', 'zealand', 'zeland', 'sealand'];

function corpus(rand: () => number): { docs: OracleDoc[]; sources: [string, Record<string, string>][] } {
  const docs: OracleDoc[] = [];
  const sources: [string, Record<string, string>][] = [];
  const pick = () => WORDS[Math.floor(rand() * rand() * WORDS.length)]; // skewed: frequencies differ
  for (let i = 0; i < 150; i++) {
    const name = Array.from({ length: 1 + Math.floor(rand() * 4) }, pick).join(' ');
    const code = pick();
    sources.push([`d${i}`, { name, code }]);
    docs.push({ id: `d${i}`, fields: [{ name: 'name', kind: 'text', value: name }, { name: 'code', kind: 'keyword', value: code }] });
  }
  return { docs, sources };
}

const REWRITES = ['default', 'default', 'default', 'constant_score', 'constant_score_boolean', 'scoring_boolean', 'top_terms_3', 'top_terms_boost_2', 'top_terms_blended_freqs_4'];

interface Case {
  dsl: Record<string, unknown>;
  lucene: string;
}

function cases(rand: () => number): Case[] {
  const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)];
  const out: Case[] = [];
  for (let i = 0; i < 400; i++) {
    const field = rand() < 0.75 ? 'name' : 'code';
    // a word of the corpus, or one edited
    let value = pick(WORDS);
    if (rand() < 0.5) {
      const at = Math.floor(rand() * (value.length + 1));
      value = rand() < 0.5 ? value.slice(0, at) + pick(['a', 'e', 'x', 'é']) + value.slice(at + 1) : value.slice(0, at) + value.slice(at + 1);
    }
    if (value === '') value = 'x';
    const fuzziness = pick([0, 1, 2, 'AUTO', 'AUTO', 'AUTO:2,4']);
    const edits = editsFor(readFuzziness('fuzzy', fuzziness, 'test'), value);
    const prefix = Math.min(pick([0, 0, 0, 1, 2]), value.length - 1); // below the length: Lucene 8 and 9 agree
    const maxExpansions = pick([1, 2, 3, 50]);
    const transpositions = rand() < 0.7;
    const rewrite = pick(REWRITES);
    const params: Record<string, unknown> = { value, fuzziness, prefix_length: prefix, max_expansions: maxExpansions, transpositions };
    if (rewrite !== 'default') params.rewrite = rewrite;
    out.push({ dsl: { fuzzy: { [field]: params } }, lucene: q.fuzzy(field, value, edits, { prefix, maxExpansions, transpositions, rewrite }) });
  }
  // match: each token a fuzzy query, in a boolean query (the terms of all of them flattened together)
  const auto = readFuzziness('match', 'AUTO', 'test');
  const near = (token: string) => WORDS.filter((w) => distance(token, w) <= editsFor(auto, token));
  for (let i = 0; i < 300 && out.length < 550; i++) {
    const tokens = Array.from({ length: 1 + Math.floor(rand() * 3) }, () => pick(WORDS));
    const expansions = tokens.map(near).flat();
    if (new Set(expansions).size < expansions.length) continue; // a term two tokens share: Lucene 8 and 9 differ
    const operator = rand() < 0.3 ? 'and' : 'or';
    const termOf = (t: string) => q.fuzzy('name', t, editsFor(auto, t), { prefix: 0, maxExpansions: 50, transpositions: true, rewrite: 'default' });
    const lucene = tokens.length === 1 ? termOf(tokens[0]) : q.bool(0, tokens.map((t) => [operator === 'and' ? 'must' : 'should', termOf(t)]));
    out.push({ dsl: { match: { name: { query: tokens.join(' '), fuzziness: 'AUTO', operator } } }, lucene });
  }
  return out;
}

describeWithLucene('fuzzy queries against Lucene (Elasticsearch 8 hits and scores)', () => {
  let lucene: ScoringOracle;
  beforeAll(() => {
    lucene = oracle as ScoringOracle;
  });
  afterAll(() => lucene?.close());

  it('fuzzy (every rewrite) and match with fuzziness find and score as Lucene FuzzyQuery', () => {
    const rand = random(SEED);
    const { docs, sources } = corpus(rand);
    const index = new SearchIndex({ keyword: ['code'] });
    for (const [id, source] of sources) index.put(id, source);
    const all = cases(rand);
    const answers = lucene.run(
      docs,
      all.map((c) => c.lucene),
    );
    let compared = 0;
    let refused = 0;
    all.forEach((c, i) => {
      const expected = answers[i];
      const context = `${JSON.stringify(c.dsl)} (seed ${SEED}; Lucene ${c.lucene})`;
      if (!expected.ok) {
        expect({ context, message: expected.message }).toEqual({ context, message: expect.stringContaining('boost must be a positive float') });
        expect(() => index.search({ query: c.dsl, from: 0, size: 1000 })).toThrow(InvalidQueryError);
        refused++;
        return;
      }
      const result = index.search({ query: c.dsl, from: 0, size: 1000 });
      expect({ context, total: result.total }).toEqual({ context, total: expected.total });
      const got = new Map(result.hits.map((h) => [h._id, h._score as number]));
      for (const hit of expected.hits) {
        const score = got.get(hit.id);
        if (score === undefined || Math.abs(score - hit.score) > 1e-5 * Math.abs(hit.score)) {
          throw new Error(`${context}: ${hit.id} ${JSON.stringify(sources.find((s) => s[0] === hit.id)?.[1])} scores ${score} here, ${hit.score} in Lucene`);
        }
      }
      compared += expected.hits.length;
    });
    expect(compared).toBeGreaterThan(3000);
    expect(refused).toBeLessThan(all.length / 10);
  });
});
