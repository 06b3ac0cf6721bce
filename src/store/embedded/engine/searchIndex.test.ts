import fc from 'fast-check';
import { Doc, InvalidQueryError, QueryDsl, SearchRequest } from '../../port';
import { SearchIndex } from './searchIndex';
import { byte4ToInt, intToByte4 } from './smallFloat';
import { COUNTRIES, expectedScore, indexAll } from './testing';

const f = Math.fround;
const page = (request: Partial<SearchRequest>): SearchRequest => ({ from: 0, size: 1000, ...request });

describe('SearchIndex: documents', () => {
  it('puts, gets, replaces and removes', () => {
    const index = new SearchIndex();
    const source = { name: 'France', nested: { a: 1 } };
    index.put('1', source);
    source.name = 'changed after put';
    expect(index.get('1')).toEqual({ name: 'France', nested: { a: 1 } });
    const copy = index.get('1') as Doc;
    (copy.nested as Record<string, unknown>).a = 2;
    expect(index.get('1')).toEqual({ name: 'France', nested: { a: 1 } });
    expect(index.size).toBe(1);
    index.put('1', { name: 'Spain' });
    expect(index.size).toBe(1);
    expect(index.count({ match: { name: 'france' } })).toBe(0);
    expect(index.remove('1')).toBe(true);
    expect(index.remove('1')).toBe(false);
    expect(index.get('1')).toBeUndefined();
    expect(index.size).toBe(0);
  });

  it('dynamic: false keeps unmapped fields in _source without indexing them', () => {
    const index = new SearchIndex({ dynamic: false, text: ['name'], long: ['rank'] });
    const source = { name: 'Paris France', description: 'capital city', rank: 3, tags: ['a'], owner: { id: 'u1' } };
    index.put('1', source);
    index.put('2', { name: 'Lyon', description: 'paris', rank: '7' });
    expect(index.get('1')).toEqual(source);
    expect(index.search(page({ query: { match: { name: 'paris' } } })).hits.map((h) => [h._id, h._source])).toEqual([['1', source]]);
    expect(index.count({ match: { description: 'paris' } })).toBe(0);
    expect(index.count({ multi_match: { query: 'paris', fields: ['*'] } })).toBe(1);
    expect(index.count({ term: { 'name.keyword': 'Lyon' } })).toBe(0);
    expect(index.count({ term: { 'owner.id': 'u1' } })).toBe(0);
    expect(index.count({ exists: { field: 'description' } })).toBe(0);
    expect(index.count({ exists: { field: 'rank' } })).toBe(2);
    expect(index.search(page({ sort: [{ rank: 'desc' }] })).hits.map((h) => h._id)).toEqual(['2', '1']);
    expect(() => index.search(page({ sort: [{ description: 'asc' }] }))).toThrow(InvalidQueryError);
  });

  it('moves a replaced document to the end of index order (ties follow it)', () => {
    const index = indexAll(new SearchIndex(), [
      ['a', { n: 1 }],
      ['b', { n: 1 }],
    ]);
    index.put('a', { n: 1 });
    expect(index.search(page({})).hits.map((h) => h._id)).toEqual(['b', 'a']);
  });

  it('survives absurdly deep documents (fields beyond 20 objects are not indexed)', () => {
    const depth = 50_000;
    const doc = JSON.parse('{"a":'.repeat(depth) + '1' + '}'.repeat(depth)) as Doc;
    const index = new SearchIndex();
    index.put('deep', { ...doc, list: JSON.parse('['.repeat(depth) + '2' + ']'.repeat(depth)) as unknown, name: 'x' });
    expect(index.count({ match: { name: 'x' } })).toBe(1);
    expect(index.count({ exists: { field: 'a' } })).toBe(0);
    expect(index.search(page({ _source: ['a.a.a', 'name'] })).hits[0]._source).toEqual({ a: { a: { a: expect.any(Object) } }, name: 'x' });
    expect(index.search(page({ _source: { excludes: ['name'] } })).total).toBe(1);
    expect(index.get('deep')).toBeDefined();
  });

  it('keeps __proto__ keys as plain data', () => {
    const index = new SearchIndex();
    index.put('p', JSON.parse('{"__proto__": {"polluted": true}, "name": "x"}') as Doc);
    expect(Object.keys(index.get('p') as Doc)).toEqual(['__proto__', 'name']);
    expect(index.search(page({ _source: ['__proto__*'] })).hits[0]._source).toEqual(JSON.parse('{"__proto__": {"polluted": true}}'));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses what is not a document', () => {
    expect(() => new SearchIndex().put('x', [] as unknown as Doc)).toThrow(TypeError);
  });
});

describe('SearchIndex: search', () => {
  const index = indexAll(new SearchIndex({ keyword: ['id', 'allowTenantIds'] }), COUNTRIES.map(([id, doc]) => [id, { ...doc, allowTenantIds: id === '3' ? ['t2'] : ['t1', '*'] }]));

  it('scores the reference example and returns exact totals', () => {
    const r = index.search(page({ query: { match: { name: 'france' } } }));
    expect(r).toEqual({ total: 1, hits: [{ _id: '1', _score: 1.1727304, _source: expect.objectContaining({ name: 'France' }) }] });
    expect(f(r.hits[0]._score as number)).toBe(expectedScore({ N: 3, n: 1, freq: 1, dl: 1, avgdl: 5 / 3 }));
  });

  it('applies the filter without changing scores', () => {
    const filter = { terms: { allowTenantIds: ['t1', '*'] } };
    const all = index.search(page({ query: { match: { name: 'french africa' } } }));
    const filtered = index.search(page({ query: { match: { name: 'french africa' } } }), filter);
    expect(filtered.hits.map((h) => [h._id, h._score])).toEqual(all.hits.filter((h) => h._id !== '3').map((h) => [h._id, h._score]));
    expect(filtered.total).toBe(1);
    expect(index.search(page({}), filter).hits.map((h) => [h._id, h._score])).toEqual([
      ['1', 1],
      ['2', 1],
    ]);
    expect(index.count(undefined, filter)).toBe(2);
    expect(index.count({ match: { name: 'africa' } }, filter)).toBe(0);
    expect(() => index.search(page({}), { bogus: {} })).toThrow('unsupported query clause "bogus" at filter');
  });

  it('pages with from and size', () => {
    const all = index.search(page({ sort: ['id'] }));
    expect(index.search({ from: 1, size: 1, sort: ['id'] })).toEqual({ total: 3, hits: [all.hits[1]] });
    expect(index.search({ from: 5, size: 2 }).hits).toEqual([]);
    expect(index.search({ from: 0, size: 0 })).toEqual({ total: 3, hits: [] });
    expect(() => index.search({ from: -1, size: 1 })).toThrow(InvalidQueryError);
  });

  it('filters _source', () => {
    expect(index.search(page({ _source: ['name'], size: 1 })).hits[0]._source).toEqual({ name: 'France' });
    // as Elasticsearch: no _source key at all
    expect(index.search(page({ _source: false, size: 1 })).hits[0]).not.toHaveProperty('_source');
  });
});

describe('SearchIndex: scores with a lossy norm and missing fields', () => {
  // d1: 45 tokens, stored as norm byte intToByte4(45), decoded 44; d2: 3 tokens; d3 has no desc
  const long = ['rare', ...Array.from({ length: 44 }, () => 'filler')].join(' ');
  const index = indexAll(new SearchIndex(), [
    ['d1', { desc: long }],
    ['d2', { desc: 'rare words here' }],
    ['d3', { other: 'rare' }],
  ]);

  it('decodes the length of the long document lossily (45 -> 44)', () => {
    expect(byte4ToInt(intToByte4(45))).toBe(44);
    // N = 2 documents have desc (d3 does not count), n = 2, avgdl = (45 + 3) / 2 = 24 (exact sums)
    const hits = index.search(page({ query: { match: { desc: 'rare' } } })).hits;
    expect(hits.map((h) => [h._id, f(h._score as number)])).toEqual([
      ['d2', expectedScore({ N: 2, n: 2, freq: 1, dl: 3, avgdl: 24 })],
      ['d1', expectedScore({ N: 2, n: 2, freq: 1, dl: 44, avgdl: 24 })],
    ]);
    expect(expectedScore({ N: 2, n: 2, freq: 1, dl: 44, avgdl: 24 })).not.toBe(expectedScore({ N: 2, n: 2, freq: 1, dl: 45, avgdl: 24 }));
  });

  it('counts term frequency', () => {
    const filler = index.search(page({ query: { term: { desc: 'filler' } } })).hits[0];
    expect(f(filler._score as number)).toBe(expectedScore({ N: 2, n: 1, freq: 44, dl: 44, avgdl: 24 }));
  });

  it('keeps statistics exact after removals', () => {
    const copy = indexAll(new SearchIndex(), [
      ['d1', { desc: long }],
      ['gone', { desc: 'rare rare rare extra tokens' }],
      ['d2', { desc: 'rare words here' }],
    ]);
    copy.remove('gone');
    expect(copy.search(page({ query: { match: { desc: 'rare' } } })).hits).toEqual(index.search(page({ query: { match: { desc: 'rare' } } })).hits);
  });
});

// ---------------------------------------------------------------------------------------------
// Property tests against a naive evaluator

const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'omega'];
const KEYWORDS = ['a', 'b', 'c'];

interface TestDoc {
  kw?: string | string[];
  txt?: string;
  num?: number | number[];
  flag?: boolean;
}

const docArb: fc.Arbitrary<TestDoc> = fc.record(
  {
    kw: fc.oneof(fc.constantFrom(...KEYWORDS), fc.array(fc.constantFrom(...KEYWORDS), { maxLength: 3 })),
    txt: fc.array(fc.constantFrom(...WORDS), { maxLength: 6 }).map((ws) => ws.join(' ')),
    num: fc.oneof(fc.integer({ min: -5, max: 5 }), fc.array(fc.integer({ min: -5, max: 5 }), { maxLength: 3 })),
    flag: fc.boolean(),
  },
  { requiredKeys: [] },
);

const word = fc.constantFrom(...WORDS, 'zeta');
const phrase = fc.array(word, { minLength: 1, maxLength: 3 }).map((ws) => ws.join(' '));
const small = fc.integer({ min: -6, max: 6 });

const leafArb: fc.Arbitrary<QueryDsl> = fc.oneof(
  fc.constant({ match_all: {} }),
  fc.constantFrom(...KEYWORDS, 'z').map((v) => ({ term: { kw: v } })),
  word.map((w) => ({ term: { txt: w } })),
  small.map((n) => ({ term: { num: n } })),
  fc.boolean().map((b) => ({ term: { flag: b } })),
  fc.array(fc.constantFrom(...KEYWORDS), { maxLength: 2 }).map((vs) => ({ terms: { kw: vs } })),
  fc.array(small, { maxLength: 2 }).map((vs) => ({ terms: { num: vs } })),
  fc.record({ gte: small, lt: small, gt: small, lte: small }, { requiredKeys: [] }).map((r) => ({ range: { num: r } })),
  fc.record({ query: phrase, operator: fc.constantFrom('or', 'and') }).map((m) => ({ match: { txt: m } })),
  phrase.map((p) => ({ match_phrase: { txt: p } })),
  fc.constantFrom('kw', 'txt', 'num', 'flag', 'none').map((field) => ({ exists: { field } })),
  fc.constantFrom('a', 'b', '').map((p) => ({ prefix: { kw: p } })),
);

const queryArb: fc.Arbitrary<QueryDsl> = fc.letrec<{ query: QueryDsl }>((tie) => ({
  query: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leafArb,
    fc
      .record(
        {
          must: fc.array(tie('query'), { maxLength: 2 }),
          should: fc.array(tie('query'), { maxLength: 3 }),
          filter: fc.array(tie('query'), { maxLength: 2 }),
          must_not: fc.array(tie('query'), { maxLength: 2 }),
          minimum_should_match: fc.integer({ min: 0, max: 3 }),
        },
        { requiredKeys: [] },
      )
      .map((b) => ({ bool: b })),
    tie('query').map((q) => ({ constant_score: { filter: q } })),
    fc.array(tie('query'), { minLength: 1, maxLength: 3 }).map((qs) => ({ dis_max: { queries: qs, tie_breaker: 0.5 } })),
  ),
})).query;

function values(doc: TestDoc, field: string): unknown[] {
  const v = (doc as Record<string, unknown>)[field];
  return v === undefined || v === null ? [] : Array.isArray(v) ? v : [v];
}

const tokens = (doc: TestDoc) => values(doc, 'txt').flatMap((s) => (s as string).split(' ').filter((t) => t !== ''));

/** What each query means, written without any index. */
function naive(q: QueryDsl, doc: TestDoc): boolean {
  const [name, body] = Object.entries(q)[0] as [string, Record<string, unknown>];
  switch (name) {
    case 'match_all':
      return true;
    case 'term': {
      const [field, value] = Object.entries(body)[0];
      return field === 'txt' ? tokens(doc).includes(value as string) : values(doc, field).includes(value);
    }
    case 'terms': {
      const [field, list] = Object.entries(body)[0] as [string, unknown[]];
      return values(doc, field).some((v) => list.includes(v));
    }
    case 'range': {
      // a later bound replaces an earlier one on the same side (gte then gt: gt wins)
      let lower: [number, boolean] | null = null;
      let upper: [number, boolean] | null = null;
      for (const [key, bound] of Object.entries(body.num as Record<string, number>)) {
        if (key === 'gte' || key === 'gt') lower = [bound, key === 'gte'];
        else upper = [bound, key === 'lte'];
      }
      return values(doc, 'num').some((v) => {
        const n = v as number;
        const aboveLower = lower === null || (lower[1] ? n >= lower[0] : n > lower[0]);
        const belowUpper = upper === null || (upper[1] ? n <= upper[0] : n < upper[0]);
        return aboveLower && belowUpper;
      });
    }
    case 'match': {
      const { query, operator } = body.txt as { query: string; operator: string };
      const words = query.split(' ');
      const have = tokens(doc);
      return operator === 'and' ? words.every((w) => have.includes(w)) : words.some((w) => have.includes(w));
    }
    case 'match_phrase': {
      const words = (body.txt as string).split(' ');
      const have = tokens(doc);
      for (let i = 0; i + words.length <= have.length; i++) if (words.every((w, j) => have[i + j] === w)) return true;
      return false;
    }
    case 'exists':
      return values(doc, body.field as string).length > 0;
    case 'prefix':
      return values(doc, 'kw').some((v) => (v as string).startsWith(body.kw as string));
    case 'constant_score':
      return naive(body.filter as QueryDsl, doc);
    case 'dis_max':
      return (body.queries as QueryDsl[]).some((sub) => naive(sub, doc));
    case 'bool': {
      const list = (key: string) => (body[key] as QueryDsl[] | undefined) ?? [];
      const [must, should, filter, mustNot] = ['must', 'should', 'filter', 'must_not'].map(list);
      if (must.length + should.length + filter.length + mustNot.length === 0) return true; // no clause: match_all
      if (!must.every((c) => naive(c, doc)) || !filter.every((c) => naive(c, doc)) || mustNot.some((c) => naive(c, doc))) return false;
      const matched = should.filter((c) => naive(c, doc)).length;
      const msm = (body.minimum_should_match as number | undefined) ?? 0;
      if (msm > 0) return matched >= msm;
      if (must.length + filter.length === 0 && should.length > 0) return matched >= 1;
      return true;
    }
    default:
      throw new Error(`naive: ${name}`);
  }
}

function build(docs: TestDoc[]): SearchIndex {
  const index = new SearchIndex({ keyword: ['kw', 'uid'] });
  docs.forEach((doc, i) => index.put(`d${i}`, { ...doc, uid: `u${String(i).padStart(3, '0')}` }));
  return index;
}

describe('SearchIndex: properties', () => {
  it('finds exactly the documents a naive evaluator finds, with finite scores', () => {
    fc.assert(
      fc.property(fc.array(docArb, { maxLength: 12 }), queryArb, (docs, query) => {
        const index = build(docs);
        const result = index.search(page({ query }));
        const expected = docs.flatMap((doc, i) => (naive(query, doc) ? [`d${i}`] : []));
        expect(result.hits.map((h) => h._id).sort()).toEqual(expected.sort());
        expect(result.total).toBe(expected.length);
        expect(index.count(query)).toBe(expected.length);
        for (const hit of result.hits) {
          expect(Number.isFinite(hit._score)).toBe(true);
          expect(hit._score as number).toBeGreaterThanOrEqual(0);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('pages by from/size and by search_after into the full list', () => {
    fc.assert(
      fc.property(fc.array(docArb, { maxLength: 15 }), queryArb, fc.integer({ min: 1, max: 4 }), fc.boolean(), (docs, query, size, byScore) => {
        const index = build(docs);
        const sort = byScore ? ['_score', { uid: 'asc' }] : [{ num: { order: 'desc', unmapped_type: 'long' } }, { kw: 'asc' }, 'uid'];
        const full = index.search(page({ query, sort })).hits;
        const byFrom = [];
        for (let from = 0; from < full.length; from += size) byFrom.push(...index.search({ query, sort, from, size }).hits);
        expect(byFrom).toEqual(full);
        const byAfter = [];
        let after: unknown[] | undefined;
        for (;;) {
          const next = index.search({ query, sort, from: 0, size, search_after: after }).hits;
          if (next.length === 0) break;
          byAfter.push(...next);
          after = next[next.length - 1].sort;
        }
        expect(byAfter).toEqual(full);
        // the default order (score, then index order) pages the same way
        const plain = index.search(page({ query })).hits;
        const plainPages = [];
        for (let from = 0; from < plain.length; from += size) plainPages.push(...index.search({ query, from, size }).hits);
        expect(plainPages).toEqual(plain);
      }),
      { numRuns: 150 },
    );
  });

  it('scores like a fresh index after any sequence of puts, replaces and removes', () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('put' as const), id: fc.integer({ min: 0, max: 5 }), doc: docArb }),
      fc.record({ kind: fc.constant('remove' as const), id: fc.integer({ min: 0, max: 5 }) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 25 }), fc.array(word, { minLength: 1, maxLength: 3 }), (ops, words) => {
        const live = new SearchIndex({ keyword: ['kw'] });
        const order = new Map<string, TestDoc>(); // insertion order = index order
        for (const o of ops) {
          const id = `d${o.id}`;
          if (o.kind === 'put') {
            live.put(id, o.doc as Doc);
            order.delete(id);
            order.set(id, o.doc);
          } else {
            live.remove(id);
            order.delete(id);
          }
        }
        const fresh = new SearchIndex({ keyword: ['kw'] });
        for (const [id, doc] of order) fresh.put(id, doc as Doc);
        const query = { bool: { should: [{ match: { txt: words.join(' ') } }, { term: { kw: 'a' } }, { term: { flag: true } }] } };
        // a fresh index maps fields from the live documents only; compare where both know the fields
        const a = live.search(page({ query }));
        const b = fresh.search(page({ query }));
        expect(a).toEqual(b);
      }),
      { numRuns: 200 },
    );
  });
});

describe('SearchIndex: fuzzing', () => {
  const index = build([{ kw: 'a', txt: 'alpha beta', num: 1, flag: true }, { kw: ['b', 'c'], num: [2, 3] }, {}]);
  const onlyInvalidQueryErrors = (run: () => unknown) => {
    try {
      run();
    } catch (e) {
      if (!(e instanceof InvalidQueryError)) throw e;
    }
  };

  it('throws nothing but InvalidQueryError for random JSON queries', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (json) => {
        onlyInvalidQueryErrors(() => index.search(page({ query: json as QueryDsl })));
        onlyInvalidQueryErrors(() => index.count(json as QueryDsl, json as QueryDsl));
      }),
      { numRuns: 500 },
    );
  });

  it('throws nothing but InvalidQueryError for random query-shaped JSON', () => {
    const names = fc.constantFrom('match_all', 'match_none', 'match', 'match_phrase', 'multi_match', 'term', 'terms', 'range', 'exists', 'ids', 'prefix', 'wildcard', 'bool', 'constant_score', 'dis_max');
    const keys = fc.constantFrom('kw', 'txt', 'num', 'flag', 'uid', '_id', 'txt.keyword', 'query', 'fields', 'field', 'value', 'values', 'boost', 'gte', 'lt', 'gt', 'lte', 'format', 'time_zone', 'must', 'should', 'filter', 'must_not', 'queries', 'operator', 'minimum_should_match', 'slop', 'type', 'tie_breaker', 'zero_terms_query', 'case_insensitive', 'lenient');
    const scalar = fc.oneof(fc.string({ maxLength: 6 }), fc.integer({ min: -3, max: 3 }), fc.double({ noNaN: false }), fc.boolean(), fc.constant(null), fc.constantFrom('now-1d/d', '2024-01-01', 'alpha beta', 'a*', '50%', 'and', 'most_fields', 'all', '+01:00'));
    const tree = fc.letrec((tie) => ({
      query: fc.dictionary(names, tie('body'), { minKeys: 1, maxKeys: 1 }),
      body: fc.oneof({ depthSize: 'small' }, scalar, tie('query'), fc.array(tie('body'), { maxLength: 3 }), fc.dictionary(keys, tie('body'), { maxKeys: 4 })),
    }));
    fc.assert(
      fc.property(tree.query, (query) => {
        onlyInvalidQueryErrors(() => index.search(page({ query: query as QueryDsl })));
        onlyInvalidQueryErrors(() => index.search(page({ query: query as QueryDsl, sort: ['_score', 'num'] })));
      }),
      { numRuns: 1000 },
    );
  });

  it('throws nothing but InvalidQueryError for random sort, search_after and _source', () => {
    const field = fc.constantFrom('kw', 'txt', 'num', 'flag', 'uid', '_score', '_doc', '_id', 'none', 'txt.keyword');
    const sortArb = fc.oneof(fc.jsonValue(), field, fc.array(fc.oneof(field, fc.dictionary(field, fc.oneof(fc.constantFrom('asc', 'desc'), fc.jsonValue()), { maxKeys: 2 })), { maxLength: 3 }));
    fc.assert(
      fc.property(sortArb, fc.oneof(fc.constant(undefined), fc.array(fc.jsonValue(), { maxLength: 3 })), fc.jsonValue(), (sort, after, source) => {
        onlyInvalidQueryErrors(() => index.search(page({ sort, search_after: after as unknown[] | undefined, _source: source })));
      }),
      { numRuns: 500 },
    );
  });
});
