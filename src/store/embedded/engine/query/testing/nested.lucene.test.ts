/**
 * Differential test against the real Lucene: `nested` is Lucene's ToParentBlockJoinQuery
 * (lucene-join; Elasticsearch's NestedQueryBuilder builds it over the nested objects' documents,
 * indexed in a block before their parent). The engine and Lucene 8.7 (ScoringOracle.java,
 * LegacyBM25Similarity, each parent's children added with it by IndexWriter.addDocuments) run the
 * same queries on a seeded corpus of parents with 0 to 4 nested objects: same hits, same float
 * scores, for every score_mode, with and without a boost, alone and beside a parent's clause, and
 * with a nested field inside another (at the root, and inside a nested query on the outer one). The
 * children's fields have their own statistics (in Lucene they exist in the child documents only).
 * Needs java, javac and the Lucene 8 jars (Debian: `apt-get install -y default-jdk-headless
 * liblucene8-java`); skipped with a message otherwise.
 */
import { SearchIndex } from '../../searchIndex';
import type { NestedScoreMode } from '../../lucene/query';
import { OracleDoc, q, scoringOracle } from './scoringOracle';

const oracle = scoringOracle();
const available = 'run' in oracle;
if (!available) console.warn(`Skipping the nested Lucene differential test: ${oracle.missing}.`);
const describeWithLucene = available ? describe : describe.skip;

const WORDS = ['bolt', 'nut', 'screw', 'steel', 'brass', 'small', 'large', 'washer'];
const KINDS = ['metric', 'imperial', 'custom'];

interface Part {
  name: string;
  kind: string;
}

function corpus(n: number): { id: string; title: string; parts: Part[] }[] {
  let state = 20261128;
  const next = () => ((state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32);
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)];
  const docs: { id: string; title: string; parts: Part[] }[] = [];
  for (let i = 0; i < n; i++) {
    const parts: Part[] = [];
    for (let p = Math.floor(next() * 5); p > 0; p--) parts.push({ name: Array.from({ length: 1 + Math.floor(next() * 5) }, () => pick(WORDS)).join(' '), kind: pick(KINDS) });
    docs.push({ id: `d${i}`, title: Array.from({ length: 1 + Math.floor(next() * 4) }, () => pick(WORDS)).join(' '), parts });
  }
  return docs;
}

/** Runs each case on the engine and on Lucene: same total, same float score for every hit; how many hits were compared. */
function compare(index: SearchIndex, docs: OracleDoc[], cases: readonly { dsl: unknown; lucene: string }[]): number {
  if (!('run' in oracle)) return 0;
  const answers = oracle.run(docs, cases.map((c) => c.lucene));
  let compared = 0;
  cases.forEach(({ dsl }, i) => {
    const answer = answers[i];
    if (!answer.ok) throw new Error(answer.message);
    const result = index.search({ query: dsl as never, from: 0, size: 100 });
    expect([JSON.stringify(dsl), result.total]).toEqual([JSON.stringify(dsl), answer.total]);
    const ours = new Map(result.hits.map((h) => [h._id, Math.fround(h._score as number)]));
    for (const hit of answer.hits) {
      expect([JSON.stringify(dsl), hit.id, ours.get(hit.id)]).toEqual([JSON.stringify(dsl), hit.id, Math.fround(hit.score)]);
      compared++;
    }
  });
  return compared;
}

describeWithLucene('nested against Lucene 8.7 ToParentBlockJoinQuery', () => {
  afterAll(() => 'run' in oracle && oracle.close());

  it('gives the same hits and float scores for every score_mode', () => {
    if (!('run' in oracle)) return;
    const docs = corpus(80);
    const index = new SearchIndex();
    index.declareMapping({
      dynamic: 'true',
      properties: { title: { type: 'text' }, parts: { type: 'nested', properties: { name: { type: 'text' }, kind: { type: 'keyword' } } } },
    });
    for (const d of docs) index.put(d.id, { title: d.title, parts: d.parts });
    const oracleDocs: OracleDoc[] = docs.map((d) => ({
      id: d.id,
      fields: [{ name: 'title', kind: 'text', value: d.title }],
      children: d.parts.map((p) => ({ fields: [{ name: 'parts.name', kind: 'text', value: p.name }, { name: 'parts.kind', kind: 'keyword', value: p.kind }] })),
    }));
    const inner: { dsl: unknown; lucene: string }[] = [
      { dsl: { match: { 'parts.name': 'bolt' } }, lucene: q.term('parts.name', 'bolt') },
      { dsl: { match: { 'parts.name': 'steel nut washer' } }, lucene: q.bool(0, ['steel', 'nut', 'washer'].map((t) => ['should', q.term('parts.name', t)] as const)) },
      {
        dsl: { bool: { must: [{ match: { 'parts.name': 'small' } }, { term: { 'parts.kind': 'metric' } }] } },
        lucene: q.bool(0, [['must', q.term('parts.name', 'small')], ['must', q.term('parts.kind', 'metric')]]),
      },
      {
        dsl: { bool: { should: [{ match: { 'parts.name': 'brass' } }], filter: [{ term: { 'parts.kind': 'custom' } }] } },
        lucene: q.bool(0, [['should', q.term('parts.name', 'brass')], ['filter', q.term('parts.kind', 'custom')]]),
      },
    ];
    const cases: { dsl: unknown; lucene: string }[] = [];
    for (const mode of ['avg', 'max', 'min', 'sum', 'none'] as NestedScoreMode[]) {
      for (const { dsl, lucene } of inner) {
        cases.push({ dsl: { nested: { path: 'parts', query: dsl, score_mode: mode } }, lucene: q.nested(mode, lucene) });
        cases.push({ dsl: { nested: { path: 'parts', query: dsl, score_mode: mode, boost: 2.5 } }, lucene: q.boost(2.5, q.nested(mode, lucene)) });
      }
      cases.push({
        dsl: { bool: { should: [{ match: { title: 'large' } }, { nested: { path: 'parts', query: inner[1].dsl, score_mode: mode } }] } },
        lucene: q.bool(0, [['should', q.term('title', 'large')], ['should', q.nested(mode, inner[1].lucene)]]),
      });
    }
    const compared = compare(index, oracleDocs, cases);
    expect(compared).toBeGreaterThan(500);
  });

  it('gives the same hits and float scores with a nested field inside another (a block of three levels)', () => {
    if (!('run' in oracle)) return;
    let state = 7;
    const next = () => ((state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32);
    const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)];
    const words = (n: number) => Array.from({ length: 1 + Math.floor(next() * n) }, () => pick(WORDS)).join(' ');
    const docs = Array.from({ length: 60 }, (_, i) => ({
      id: `k${i}`,
      parts: Array.from({ length: Math.floor(next() * 4) }, () => ({ name: words(3), screws: Array.from({ length: Math.floor(next() * 4) }, () => ({ note: words(4) })) })),
    }));
    const index = new SearchIndex();
    index.declareMapping({
      dynamic: 'true',
      properties: { parts: { type: 'nested', properties: { name: { type: 'text' }, screws: { type: 'nested', properties: { note: { type: 'text' } } } } } },
    });
    for (const d of docs) index.put(d.id, { parts: d.parts });
    const oracleDocs: OracleDoc[] = docs.map((d) => ({
      id: d.id,
      fields: [],
      children: d.parts.map((p) => ({ fields: [{ name: 'parts.name', kind: 'text', value: p.name }], children: p.screws.map((s) => ({ fields: [{ name: 'parts.screws.note', kind: 'text', value: s.note }] })) })),
    }));
    const screws = { dsl: { match: { 'parts.screws.note': 'steel small' } }, lucene: q.bool(0, ['steel', 'small'].map((t) => ['should', q.term('parts.screws.note', t)] as const)) };
    const cases: { dsl: unknown; lucene: string }[] = [];
    for (const mode of ['avg', 'max', 'min', 'sum', 'none'] as NestedScoreMode[]) {
      // at the root, the screws join to the root documents at once
      cases.push({ dsl: { nested: { path: 'parts.screws', query: screws.dsl, score_mode: mode } }, lucene: q.nested(mode, screws.lucene) });
      // inside a nested query on parts, to the parts, which join to the root documents
      for (const outer of ['avg', 'sum'] as NestedScoreMode[]) {
        cases.push({
          dsl: { nested: { path: 'parts', score_mode: outer, query: { bool: { should: [{ match: { 'parts.name': 'bolt' } }, { nested: { path: 'parts.screws', query: screws.dsl, score_mode: mode, boost: 2 } }] } } } },
          lucene: q.nested(outer, q.bool(0, [['should', q.term('parts.name', 'bolt')], ['should', q.boost(2, q.nestedIn(1, mode, screws.lucene))]])),
        });
      }
    }
    const compared = compare(index, oracleDocs, cases);
    expect(compared).toBeGreaterThan(200);
  });
});
