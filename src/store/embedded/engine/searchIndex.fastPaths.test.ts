/**
 * The fast paths of SearchIndex (term disjunctions ranked in one pass with score bounds, top-k heaps,
 * cached filter bitsets, tombstones and compaction) against a reference: the same documents indexed
 * afresh, every match evaluated and scored by the general evaluator, then fully sorted.
 */
import fc from 'fast-check';
import { Doc, QueryDsl } from '../../port';
import { InvertedIndex } from './invertedIndex';
import { IndexMapping } from './mapping';
import { COMPACTION, SearchIndex } from './searchIndex';
import { parseSearchQuery, runQuery } from './search';

const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'omega', 'pi'];
const KEYWORDS = ['a', 'b', 'c'];
const MAPPING = { keyword: ['kw', 'tenants'] };
const TEMPLATE = { kw: 'a', txt: 'alpha', title: 'alpha', num: 1, flag: true, tenants: ['t1'] };

const docArb: fc.Arbitrary<Doc> = fc.record(
  {
    kw: fc.oneof(fc.constantFrom(...KEYWORDS), fc.array(fc.constantFrom(...KEYWORDS), { maxLength: 3 })),
    txt: fc.array(fc.constantFrom(...WORDS), { maxLength: 8 }).map((ws) => ws.join(' ')),
    title: fc.oneof(fc.array(fc.constantFrom(...WORDS), { maxLength: 3 }).map((ws) => ws.join(' ')), fc.array(fc.constantFrom('alpha', 'beta gamma', ''), { maxLength: 2 })),
    num: fc.integer({ min: -3, max: 3 }),
    flag: fc.boolean(),
    tenants: fc.array(fc.constantFrom('t1', 't2', '*'), { maxLength: 2 }),
  },
  { requiredKeys: [] },
);

const words = fc.array(fc.constantFrom(...WORDS, 'zeta'), { minLength: 1, maxLength: 4 }).map((ws) => ws.join(' '));
const match = fc.oneof(
  words.map((q) => ({ match: { txt: q } })),
  fc.record({ q: words, boost: fc.constantFrom(0.5, 1, 2) }).map(({ q, boost }) => ({ match: { title: { query: q, boost } } })),
  fc.constantFrom(...KEYWORDS, 'z').map((k) => ({ term: { kw: k } })),
  fc.record({ a: words, b: words }).map(({ a, b }) => ({ bool: { should: [{ match: { txt: a } }, { match: { title: b } }, { term: { kw: 'b' } }] } })),
  fc.record({ q: words, f: fc.constantFrom('most_fields', 'best_fields') }).map(({ q, f }) => ({ multi_match: { query: q, fields: ['txt', 'title^2'], type: f } })),
);
const filterArb = fc.oneof(
  fc.constant(null),
  fc.constant({ terms: { tenants: ['t1', '*'] } }),
  fc.record({ gte: fc.integer({ min: -3, max: 3 }) }).map((r) => ({ range: { num: r } })),
  fc.constantFrom(...KEYWORDS).map((k) => ({ bool: { filter: [{ term: { kw: k } }], must_not: [{ term: { flag: false } }] } })),
);
const queryArb: fc.Arbitrary<QueryDsl> = fc.oneof(
  match,
  fc.record({ m: match, f: fc.array(filterArb.filter((x) => x !== null), { maxLength: 2 }), n: fc.array(match, { maxLength: 1 }) }).map(({ m, f, n }) => ({ bool: { must: m, filter: f, must_not: n } })),
  fc.constant({ match_all: {} }),
);

type Op = { kind: 'put'; id: number; doc: Doc } | { kind: 'remove'; id: number } | { kind: 'search'; query: QueryDsl };
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('put' as const), id: fc.integer({ min: 0, max: 14 }), doc: docArb }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('remove' as const), id: fc.integer({ min: 0, max: 14 }) }) },
  // searches in between: postings are written (then removals leave tombstones) and filters cached
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('search' as const), query: queryArb }) },
);

/** Apply the operations; returns the live index and the documents in index order. */
function replay(ops: Op[]): { live: SearchIndex; order: Map<string, Doc> } {
  const live = new SearchIndex(MAPPING);
  live.put('template', TEMPLATE); // fixes the field types, as in the reference
  live.remove('template');
  const order = new Map<string, Doc>();
  for (const op of ops) {
    const id = op.kind === 'search' ? '' : `d${op.id}`;
    if (op.kind === 'put') {
      live.put(id, op.doc);
      order.delete(id);
      order.set(id, op.doc);
    } else if (op.kind === 'remove') {
      live.remove(id);
      order.delete(id);
    } else {
      live.search({ query: op.query, from: 0, size: 3 }, { terms: { tenants: ['t1', '*'] } });
    }
  }
  return { live, order };
}

/** Every match, scored by the general evaluator on a fresh index, in Elasticsearch's order. */
function reference(order: Map<string, Doc>, query: QueryDsl, filter: QueryDsl | null): { total: number; hits: [string, number][] } {
  const mapping = new IndexMapping(MAPPING);
  mapping.parse(TEMPLATE);
  const index = new InvertedIndex();
  for (const [id, doc] of order) index.addSource(id, doc, mapping);
  const scores = runQuery(parseSearchQuery(query, filter), mapping, index, true);
  const sorted = [...scores].sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  return { total: scores.size, hits: sorted.map(([doc, score]) => [index.record(doc)?.id as string, score]) };
}

function check(ops: Op[], query: QueryDsl, filter: QueryDsl | null, from: number, size: number): void {
  const { live, order } = replay(ops);
  const expected = reference(order, query, filter);
  for (let round = 0; round < 2; round++) {
    // twice: the second search reads the filter cache
    const result = live.search({ query, from, size }, filter);
    expect(result.total).toBe(expected.total);
    expect(result.hits.map((h) => [h._id, Math.fround(h._score as number)])).toEqual(expected.hits.slice(from, from + size));
    expect(live.count(query, filter)).toBe(expected.total);
  }
}

describe('SearchIndex fast paths against the general evaluator', () => {
  it('rank pages of term disjunctions, filtered or not, exactly as a full sort of every match', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 30 }), queryArb, filterArb, fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 6 }), (ops, query, filter, from, size) => {
        check(ops, query, filter, from, size);
      }),
      { numRuns: 400 },
    );
  });

  it('stay exact across compactions (tombstones dropped, documents renumbered in order)', () => {
    const saved = COMPACTION.minDead;
    COMPACTION.minDead = 4;
    try {
      fc.assert(
        fc.property(fc.array(opArb, { minLength: 10, maxLength: 60 }), queryArb, filterArb, (ops, query, filter) => {
          check(ops, query, filter, 0, 4);
        }),
        { numRuns: 200 },
      );
    } finally {
      COMPACTION.minDead = saved;
    }
  });

  it('keep cached filters exact while documents come and go', () => {
    const live = new SearchIndex(MAPPING);
    const filter = { terms: { tenants: ['t1', '*'] } };
    const visible = new Set<string>();
    for (let i = 0; i < 300; i++) {
      const id = `d${i % 40}`;
      const tenants = i % 3 === 0 ? ['t2'] : i % 3 === 1 ? ['t1'] : ['*'];
      if (i % 7 === 6) {
        live.remove(id);
        visible.delete(id);
      } else {
        live.put(id, { txt: WORDS[i % WORDS.length], tenants });
        if (tenants[0] === 't2') visible.delete(id);
        else visible.add(id);
      }
      expect(live.count(undefined, filter)).toBe(visible.size);
      expect(live.search({ query: { match_all: {} }, from: 0, size: 100 }, filter).hits.map((h) => h._id).sort()).toEqual([...visible].sort());
    }
  });
});
