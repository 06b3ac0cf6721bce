/**
 * Differential test against the real Lucene: `match` queries on text fields holding mixed scripts
 * (Han, Hiragana, Katakana, Hangul, Thai, emoji sequences, accented Latin, numbers...), scored by the
 * engine and by Lucene (query/testing/ScoringOracle.java: StandardAnalyzer without stop words,
 * LegacyBM25Similarity as Elasticsearch 8). The field lengths (norms) come from the tokenization, so
 * equal scores show the index holds Lucene's tokens. Includes the examples: "日本" finds
 * "東京都 日本語", "👍🏽" a note holding it. Skipped with a message without java or the Lucene jars.
 */
import { analyzeText } from '../analyzer';
import { q, scoringOracle } from '../query/testing/scoringOracle';
import { SearchIndex } from '../searchIndex';
import { random, randomText } from './testing/generate';

const oracle = scoringOracle();
const available = 'run' in oracle;
if (!available) console.warn(`Skipping the mixed-script scoring test against Lucene: ${oracle.missing}. Install java, javac and Lucene (Debian: apt-get install -y default-jdk-headless liblucene8-java).`);
const describeWithLucene = available ? describe : describe.skip;

const SEED = Number(process.env.ANALYSIS_SEED ?? 20261125);

describeWithLucene('match on mixed-script text against Lucene (hits and scores)', () => {
  afterAll(() => {
    if ('close' in oracle) oracle.close();
  });

  it('finds and scores as Lucene does', () => {
    const rand = random(SEED);
    const names = ['東京都 日本語', 'great 👍🏽 service', 'Kyoto, 日本', 'ok 👍', ...Array.from({ length: 200 }, () => randomText(rand, 8))];
    const index = new SearchIndex({});
    names.forEach((name, i) => index.put(`d${i}`, { name }));
    const docs = names.map((name, i) => ({ id: `d${i}`, fields: [{ name: 'name', kind: 'text' as const, value: name }] }));
    const texts = ['日本', '👍🏽', '👍', ...Array.from({ length: 300 }, () => randomText(rand, 3))];
    const queries: { text: string; lucene: string }[] = [];
    for (const text of texts) {
      const tokens = [...new Set(analyzeText(text))];
      if (tokens.length === 0) continue;
      queries.push({ text: tokens.join(' '), lucene: tokens.length === 1 ? q.term('name', tokens[0]) : q.bool(0, tokens.map((t) => ['should', q.term('name', t)])) });
    }
    const answers = (oracle as Exclude<typeof oracle, { missing: string }>).run(
      docs,
      queries.map((c) => c.lucene),
    );
    let compared = 0;
    queries.forEach((c, i) => {
      const expected = answers[i];
      if (!expected.ok) throw new Error(`${c.text}: ${expected.message}`);
      const result = index.search({ query: { match: { name: c.text } }, from: 0, size: 1000 });
      expect({ text: c.text, total: result.total }).toEqual({ text: c.text, total: expected.total });
      const got = new Map(result.hits.map((h) => [h._id, h._score as number]));
      for (const hit of expected.hits) {
        const score = got.get(hit.id);
        if (score === undefined || Math.abs(score - hit.score) > 1e-5 * Math.abs(hit.score)) throw new Error(`${c.text}: ${hit.id} (${names[Number(hit.id.slice(1))]}) scores ${score} here, ${hit.score} in Lucene`);
      }
      compared += expected.hits.length;
    });
    expect(compared).toBeGreaterThan(500);
    const ids = (text: string) => index.search({ query: { match: { name: text } }, from: 0, size: 1000 }).hits.map((h) => h._id);
    expect(ids('日本')).toEqual(expect.arrayContaining(['d0', 'd2']));
    expect(ids('👍🏽')).toContain('d1');
    expect(ids('👍🏽')).not.toContain('d3'); // 👍 alone is another token
  });
});
