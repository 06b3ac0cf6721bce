/**
 * Differential test against the real Lucene: `combined_fields` builds one CombinedFieldQuery per
 * token, run by the engine and by Lucene 8.7's BM25FQuery (lucene-sandbox: the same BM25F scoring,
 * ScoringOracle.java, with LegacyBM25's boost) on a seeded corpus of documents with a title, a body
 * and an abstract: same hits, same float scores, for weights 1, 2, 1.5 and 3, several
 * tokens with or, and, minimum_should_match, and an outer boost. Lucene 8.7 rewrites a query of one
 * (field, term) pair in the index to a TermQuery and one field to a SynonymQuery, which Lucene 9
 * (Elasticsearch 8) no longer does (LUCENE-10039): those cases are pinned by hand in
 * query/combinedFields.test.ts; here every queried word is in two fields at least. Lucene 8.7 also
 * reads a stale norm for a document without one of the fields (fixed in Lucene 9's
 * MultiNormsLeafSimScorer, which adds nothing for it): every document here has every field, and the
 * missing-field case is pinned by hand too. Needs java,
 * javac and the Lucene 8 jars (Debian: `apt-get install -y default-jdk-headless liblucene8-java`);
 * skipped with a message otherwise.
 */
import { SearchIndex } from '../../searchIndex';
import { OracleDoc, q, scoringOracle } from './scoringOracle';

const oracle = scoringOracle();
const available = 'run' in oracle;
if (!available) console.warn(`Skipping the combined_fields Lucene differential test: ${oracle.missing}.`);
const describeWithLucene = available ? describe : describe.skip;

const WORDS = ['red', 'green', 'blue', 'apple', 'pear', 'plum', 'tree', 'leaf', 'stone', 'river'];

type Doc = { id: string; title: string; body?: string; abstract?: string };

function corpus(n: number): Doc[] {
  let state = 20261128;
  const next = () => ((state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32);
  const words = (max: number) => Array.from({ length: 1 + Math.floor(next() * max) }, () => WORDS[Math.floor(next() * WORDS.length)]).join(' ');
  const docs: Doc[] = [];
  for (let i = 0; i < n; i++) {
    const doc: Doc = { id: `d${i}`, title: words(4) };
    doc.body = words(30);
    doc.abstract = words(10);
    docs.push(doc);
  }
  return docs;
}

describeWithLucene('combined_fields against Lucene 8.7 BM25FQuery', () => {
  afterAll(() => 'run' in oracle && oracle.close());

  it('gives the same hits and float scores', () => {
    if (!('run' in oracle)) return;
    const docs = corpus(80);
    const index = new SearchIndex();
    for (const { id, ...source } of docs) index.put(id, source);
    const oracleDocs: OracleDoc[] = docs.map(({ id, ...source }) => ({
      id,
      fields: Object.entries(source).map(([name, value]) => ({ name, kind: 'text' as const, value: value as string })),
    }));
    const cases: { fields: [string, number][]; text: string; operator?: 'and'; msm?: number; boost?: number }[] = [
      { fields: [['title', 1], ['body', 1]], text: 'apple' },
      { fields: [['title', 2], ['body', 1]], text: 'pear' },
      { fields: [['title', 1.5], ['body', 1], ['abstract', 3]], text: 'river' },
      { fields: [['title', 3], ['body', 1]], text: 'red apple' },
      { fields: [['title', 2], ['body', 1], ['abstract', 1]], text: 'green tree leaf', operator: 'and' },
      { fields: [['body', 1], ['abstract', 2]], text: 'stone river plum blue', msm: 2 },
      { fields: [['title', 1], ['body', 2]], text: 'plum plum leaf', boost: 2.5 },
    ];
    for (const c of cases) {
      for (const word of c.text.split(' ')) {
        // Lucene 8.7 scores alike only when two (field, term) pairs or more are in the index
        expect(c.fields.filter(([field]) => docs.some((d) => (d[field as keyof Doc] ?? '').split(' ').includes(word))).length).toBeGreaterThan(1);
      }
    }
    const exprs = cases.map(({ fields, text, operator, msm, boost }) => {
      const words = text.split(' ');
      const per = words.map((w) => q.bm25f(fields, [w]));
      const query = per.length === 1 ? per[0] : q.bool(msm ?? 0, per.map((e) => [operator === 'and' ? 'must' : 'should', e] as const));
      return q.boost(boost ?? 1, query);
    });
    const answers = oracle.run(oracleDocs, exprs);
    cases.forEach(({ fields, text, operator, msm, boost }, i) => {
      const answer = answers[i];
      if (!answer.ok) throw new Error(answer.message);
      const query = {
        combined_fields: {
          query: text,
          fields: fields.map(([f, w]) => (w === 1 ? f : `${f}^${w}`)),
          ...(operator === undefined ? {} : { operator }),
          ...(msm === undefined ? {} : { minimum_should_match: msm }),
          ...(boost === undefined ? {} : { boost }),
        },
      };
      const result = index.search({ query, from: 0, size: 100 });
      expect([text, result.total]).toEqual([text, answer.total]);
      const ours = new Map(result.hits.map((h) => [h._id, Math.fround(h._score as number)]));
      for (const hit of answer.hits) expect([text, hit.id, ours.get(hit.id)]).toEqual([text, hit.id, Math.fround(hit.score)]);
    });
  });
});
