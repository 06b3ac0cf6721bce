/**
 * SearchIndexOptions.idField: the ids and the keyword field the sources hold them in share one
 * dictionary (InvertedIndex.keyTerms). Every answer is the one of an index without it, whatever the
 * sources hold there (their id, another value, nothing), before and after an index file and a
 * compaction.
 */
import fc from 'fast-check';
import type { Doc, SearchRequest } from '../../port';
import { StateReader, StateWriter, sectionBytes } from './persist/state';
import { COMPACTION, SearchIndex } from './searchIndex';

const MAPPING = { keyword: ['id', 'slug'] };
const IDS = ['e1', 'e2', 'e10', 'e11', 'x', 'e3'];

type Op = { kind: 'put'; id: string; value: 'same' | 'other' | 'none'; slug: string } | { kind: 'remove'; id: string };
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('put' as const), id: fc.constantFrom(...IDS), value: fc.constantFrom('same' as const, 'same' as const, 'other' as const, 'none' as const), slug: fc.constantFrom('s1', 's2') }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('remove' as const), id: fc.constantFrom(...IDS) }) },
);

const sourceOf = (op: Extract<Op, { kind: 'put' }>): Doc => (op.value === 'none' ? { slug: op.slug } : { id: op.value === 'same' ? op.id : `${op.id}-other`, slug: op.slug });

const page = (request: Partial<SearchRequest>): SearchRequest => ({ from: 0, size: 100, ...request });
const REQUESTS: Partial<SearchRequest>[] = [
  { query: { ids: { values: IDS } }, sort: [{ slug: 'asc' }, { id: { order: 'asc', missing: '_last' } }] },
  { query: { term: { id: 'e1' } } },
  { query: { terms: { id: ['e2', 'e10-other', 'x'] } } },
  { query: { prefix: { id: 'e1' } }, sort: [{ id: 'desc' }] },
  { query: { wildcard: { id: '*other' } } },
  { query: { range: { id: { gte: 'e1', lt: 'e3' } } }, sort: [{ id: 'asc' }] },
  { query: { exists: { field: 'id' } } },
  { size: 0, aggs: { ids: { terms: { field: 'id', size: 20 } }, n: { cardinality: { field: 'id' } } } },
];

const answers = (index: SearchIndex) =>
  [
    ...REQUESTS.map((r) => {
      const result = index.search(page(r));
      return { total: result.total, hits: result.hits.map((h) => [h._id, h._source, h.sort ?? null]), aggs: result.aggregations ?? null };
    }),
    IDS.map((id) => index.get(id) ?? null),
  ];

const roundTrip = (index: SearchIndex): SearchIndex => {
  const w = new StateWriter();
  index.writeState(w);
  return SearchIndex.readState(new StateReader(w.meta, w.sections.map(sectionBytes)));
};

function apply(index: SearchIndex, ops: Op[]): void {
  for (const op of ops) {
    if (op.kind === 'put') index.put(op.id, sourceOf(op));
    else index.remove(op.id);
  }
}

describe('SearchIndex idField: the ids are the dictionary of the field that holds them', () => {
  it('answers as an index of its own ids would, before and after an index file, and takes writes after it', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 25 }), fc.array(opArb, { maxLength: 8 }), (ops, more) => {
        const plain = new SearchIndex(MAPPING);
        const shared = new SearchIndex(MAPPING, { idField: 'id' });
        apply(plain, ops);
        apply(shared, ops);
        expect(answers(shared)).toEqual(answers(plain));
        const read = roundTrip(shared);
        expect(answers(read)).toEqual(answers(plain));
        apply(plain, more);
        apply(read, more);
        expect(answers(read)).toEqual(answers(plain));
      }),
      { numRuns: 150 },
    );
  });

  it('values of id that are no document\'s id, more of them than ids: get, remove and ids find nothing, the index file is written and read', () => {
    const shared = new SearchIndex(MAPPING, { idField: 'id' });
    const plain = new SearchIndex(MAPPING);
    for (const index of [shared, plain]) for (let i = 0; i < 40; i++) index.put(`e${i}`, { id: i < 5 ? `e${i}` : `v${i}`, slug: 's1' });
    const check = (index: SearchIndex) => {
      expect(index.get('v20')).toBeUndefined();
      expect(() => index.remove('v21')).not.toThrow();
      expect(index.search(page({ query: { ids: { values: ['v22', 'e1'] } } })).hits.map((h) => h._id)).toEqual(['e1']);
      expect(index.search(page({ query: { term: { id: 'v23' } } })).hits.map((h) => h._id)).toEqual(['e23']);
    };
    check(shared);
    check(plain);
    const read = roundTrip(shared);
    check(read);
    // a value taking the key just past those of the ids so far
    const edge = new SearchIndex(MAPPING, { idField: 'id' });
    for (let i = 0; i < 15; i++) edge.put(`e${i}`, { id: `e${i}` });
    edge.put('e15', { id: 'other' });
    expect(edge.get('other')).toBeUndefined();
    expect(edge.search(page({ query: { ids: { values: ['other', 'e15'] } } })).hits.map((h) => h._id)).toEqual(['e15']);
    expect(() => edge.remove('other')).not.toThrow();
    expect(roundTrip(edge).get('e15')).toEqual({ id: 'other' });
    read.put('a', { id: 'zz' });
    expect(() => read.remove('zz')).not.toThrow();
    expect(read.get('a')).toEqual({ id: 'zz' });
    expect(answers(roundTrip(read))).toEqual(answers(read));
  });

  it('stays exact across compactions (tombstones dropped, documents renumbered)', () => {
    const saved = COMPACTION.minDead;
    COMPACTION.minDead = 3;
    try {
      fc.assert(
        fc.property(fc.array(opArb, { minLength: 10, maxLength: 40 }), (ops) => {
          const plain = new SearchIndex(MAPPING);
          const shared = new SearchIndex(MAPPING, { idField: 'id' });
          apply(plain, ops);
          apply(shared, ops);
          expect(answers(shared)).toEqual(answers(plain));
          expect(answers(roundTrip(shared))).toEqual(answers(plain));
        }),
        { numRuns: 100 },
      );
    } finally {
      COMPACTION.minDead = saved;
    }
  });

  it('keeps one dictionary for a million-like load of ids: the field and the ids, before and after an index file', () => {
    const shared = new SearchIndex(MAPPING, { idField: 'id' });
    const plain = new SearchIndex(MAPPING);
    for (let i = 0; i < 20_000; i++) {
      shared.put(`p${i}`, { id: `p${i}`, slug: `p${i}` });
      plain.put(`p${i}`, { id: `p${i}`, slug: `p${i}` });
    }
    const dictionaries = (index: SearchIndex) => {
      const inner = (index as unknown as { index: { idKeys: unknown; field(name: string): { terms: { dict: unknown } } } }).index;
      return { same: inner.idKeys === inner.field('id').terms.dict };
    };
    expect(dictionaries(shared).same).toBe(true);
    expect(dictionaries(plain).same).toBe(false);
    expect(dictionaries(roundTrip(shared)).same).toBe(true);
    expect(roundTrip(shared).search(page({ query: { term: { id: 'p12345' } } })).hits.map((h) => h._id)).toEqual(['p12345']);
  });
});
