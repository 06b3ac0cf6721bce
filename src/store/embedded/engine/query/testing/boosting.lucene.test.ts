/**
 * Differential test against the real Lucene: `boosting` is Lucene's FunctionScoreQuery.boostByQuery
 * (lucene-queries; Elasticsearch's BoostingQueryBuilder builds exactly that), run by the engine and
 * by Lucene 8.7 (ScoringOracle.java, LegacyBM25Similarity) on a seeded corpus: same hits, same
 * float scores, with and without an outer boost. Needs java, javac and the Lucene 8 jars (Debian:
 * `apt-get install -y default-jdk-headless liblucene8-java`); skipped with a message otherwise.
 */
import { SearchIndex } from '../../searchIndex';
import { OracleDoc, q, scoringOracle } from './scoringOracle';

const oracle = scoringOracle();
const available = 'run' in oracle;
if (!available) console.warn(`Skipping the boosting Lucene differential test: ${oracle.missing}.`);
const describeWithLucene = available ? describe : describe.skip;

const WORDS = ['red', 'green', 'blue', 'apple', 'pear', 'plum', 'tree', 'leaf'];

function corpus(n: number): [string, string][] {
  let state = 20251125;
  const next = () => ((state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32);
  const docs: [string, string][] = [];
  for (let i = 0; i < n; i++) {
    const length = 1 + Math.floor(next() * 8);
    docs.push([`d${i}`, Array.from({ length }, () => WORDS[Math.floor(next() * WORDS.length)]).join(' ')]);
  }
  return docs;
}

describeWithLucene('boosting against Lucene 8.7 FunctionScoreQuery.boostByQuery', () => {
  afterAll(() => 'run' in oracle && oracle.close());

  it('gives the same hits and float scores', () => {
    if (!('run' in oracle)) return;
    const docs = corpus(60);
    const index = new SearchIndex();
    for (const [id, body] of docs) index.put(id, { body });
    const oracleDocs: OracleDoc[] = docs.map(([id, body]) => ({ id, fields: [{ name: 'body', kind: 'text', value: body }] }));
    const cases: { positive: string[]; negative: string; nb: number; boost: number }[] = [
      { positive: ['apple'], negative: 'red', nb: 0.5, boost: 1 },
      { positive: ['apple', 'pear', 'tree'], negative: 'green', nb: 0.2, boost: 1 },
      { positive: ['plum', 'leaf'], negative: 'blue', nb: 0.3, boost: 2.5 },
      { positive: ['red', 'green'], negative: 'red', nb: 0, boost: 1 },
      { positive: ['tree'], negative: 'nothing', nb: 0.7, boost: 0.3 },
    ];
    const exprs = cases.map(({ positive, negative, nb, boost }) =>
      q.boost(boost, q.boostByQuery(nb, q.bool(0, positive.map((t) => ['should', q.term('body', t)] as const)), q.term('body', negative))),
    );
    const answers = oracle.run(oracleDocs, exprs);
    cases.forEach(({ positive, negative, nb, boost }, i) => {
      const answer = answers[i];
      if (!answer.ok) throw new Error(answer.message);
      const query = { boosting: { positive: { match: { body: positive.join(' ') } }, negative: { term: { body: negative } }, negative_boost: nb, boost } };
      const result = index.search({ query, from: 0, size: 100 });
      expect(result.total).toBe(answer.total);
      const ours = new Map(result.hits.map((h) => [h._id, Math.fround(h._score as number)]));
      for (const hit of answer.hits) expect([hit.id, ours.get(hit.id)]).toEqual([hit.id, Math.fround(hit.score)]);
    });
  });
});
