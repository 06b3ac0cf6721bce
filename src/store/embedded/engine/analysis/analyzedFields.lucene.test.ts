/**
 * Differential test against the real Lucene: text fields declared with the `english` and `cjk`
 * analyzers (and one left `standard`) are indexed by the engine and by Lucene
 * (query/testing/ScoringOracle.java: EnglishAnalyzer, CJKAnalyzer, StandardAnalyzer without stop
 * words, LegacyBM25Similarity as Elasticsearch 8), then searched with `match` (or, and) and
 * `match_phrase` (slop 0 and 1), Lucene analyzing the query text itself (QueryBuilder, which
 * Elasticsearch's MatchQueryParser extends). Equal hits and scores show the index holds each
 * analyzer's terms, field lengths (stop words not counted) and positions (their gaps kept), and that
 * queries are analyzed by the field's analyzer. Skipped with a message without java or the jars.
 */
import type { TypeMapping } from '../../../mapping/typeMapping';
import { OracleDoc, q, scoringOracle } from '../query/testing/scoringOracle';
import { SearchIndex } from '../searchIndex';
import { random, randomText } from './testing/generate';

const oracle = scoringOracle();
const available = 'run' in oracle;
if (!available) console.warn(`Skipping the analyzed fields' scoring test against Lucene: ${oracle.missing}. Install java, javac and Lucene (Debian: apt-get install -y default-jdk-headless liblucene8-java).`);
const describeWithLucene = available ? describe : describe.skip;

const SEED = Number(process.env.ANALYSIS_SEED ?? 20261128);

/** Words that stem, possessives, stop words of both analyzers, numbers, mixed case. */
const WORDS = [
  'the', 'The', 'a', 'an', 'and', 'is', 'of', 'to', 'in', 'with', 'not', 's', 't', 'www',
  'run', 'runs', 'running', 'runner', "runner's", 'race', 'races', 'racing', 'dog', 'dogs', "dog's", 'Dogs',
  'relational', 'relate', 'connection', 'connected', 'connects', 'happy', 'happiness', 'owner', "owners'",
  'city', 'cities', 'fast', 'faster', 'fastest', '2024', 'v1.2', 'e-mail', 'Tokyo', 'ＡＢＣ',
];
const CJK = ['東京都', '日本語', '京都', 'ひらがな', 'カタカナ', 'ｶﾀｶﾅ', '한국어', '中文', '👍🏽'];

function sentence(rand: () => number, words: number, cjk: boolean): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(cjk && rand() < 0.5 ? CJK[Math.floor(rand() * CJK.length)] : WORDS[Math.floor(rand() * WORDS.length)]);
  return out.join(rand() < 0.2 ? ', ' : ' ');
}

const MAPPING: TypeMapping = {
  dynamic: 'true',
  properties: { body: { type: 'text', analyzer: 'english' }, jp: { type: 'text', analyzer: 'cjk' }, plain: { type: 'text' } },
};

describeWithLucene('english and cjk fields against Lucene (hits and scores)', () => {
  afterAll(() => {
    if ('close' in oracle) oracle.close();
  });

  it('indexes, analyzes queries and scores as Lucene does', () => {
    const rand = random(SEED);
    const index = new SearchIndex({});
    index.declareMapping(MAPPING);
    const docs: OracleDoc[] = [];
    for (let i = 0; i < 250; i++) {
      const body = sentence(rand, 1 + Math.floor(rand() * 12), false);
      const jp = rand() < 0.3 ? randomText(rand, 6) || 'x' : sentence(rand, 1 + Math.floor(rand() * 8), true);
      const plain = sentence(rand, 1 + Math.floor(rand() * 8), true);
      index.put(`d${i}`, { body, jp, plain });
      docs.push({ id: `d${i}`, fields: [{ name: 'body', kind: 'english', value: body }, { name: 'jp', kind: 'cjk', value: jp }, { name: 'plain', kind: 'text', value: plain }] });
    }
    type Case = { body: Record<string, unknown>; lucene: string };
    const cases: Case[] = [];
    for (let i = 0; i < 150; i++) {
      const field = (['body', 'jp', 'plain'] as const)[i % 3];
      const text = sentence(rand, 1 + Math.floor(rand() * 4), field !== 'body');
      const operator = rand() < 0.5 ? 'or' : 'and';
      cases.push({ body: { match: { [field]: { query: text, operator } } }, lucene: q.match(field, operator, text) });
      const slop = rand() < 0.5 ? 0 : 1;
      cases.push({ body: { match_phrase: { [field]: { query: text, slop } } }, lucene: q.matchPhrase(field, slop, text) });
    }
    // phrases across removed stop words: "dogs the race" is "dog _ race" in both
    cases.push({ body: { match_phrase: { body: 'running the races' } }, lucene: q.matchPhrase('body', 0, 'running the races') });
    cases.push({ body: { match_phrase: { jp: '東京都 and 日本語' } }, lucene: q.matchPhrase('jp', 0, '東京都 and 日本語') });
    const answers = (oracle as Exclude<typeof oracle, { missing: string }>).run(
      docs,
      cases.map((c) => c.lucene),
    );
    let compared = 0;
    cases.forEach((c, i) => {
      const expected = answers[i];
      const what = JSON.stringify(c.body);
      if (!expected.ok) throw new Error(`${what}: ${expected.message}`);
      const result = index.search({ query: c.body, from: 0, size: 1000 });
      expect({ what, total: result.total }).toEqual({ what, total: expected.total });
      const got = new Map(result.hits.map((h) => [h._id, h._score as number]));
      for (const hit of expected.hits) {
        const score = got.get(hit.id);
        if (score === undefined || Math.abs(score - hit.score) > 1e-5 * Math.abs(hit.score)) throw new Error(`${what}: ${hit.id} scores ${score} here, ${hit.score} in Lucene`);
      }
      compared += expected.hits.length;
    });
    expect(compared).toBeGreaterThan(1000);
  });
});
