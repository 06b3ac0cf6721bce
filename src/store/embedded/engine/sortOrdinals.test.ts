import fc from 'fast-check';
import { SearchIndex } from './searchIndex';
import { compareUtf8 } from './strings';
import { TermHash } from './termHash';
import { indexAll } from './testing';

// terms whose UTF-16 and UTF-8 orders differ among them (U+FF21, U+FFFF, a surrogate pair), a prefix of another, the empty string
const TERMS = ['a', 'ab', 'b', 'a\uFF21', 'a😀', '\uFFFF', 'zz', ''];

type Missing = '_last' | '_first' | string;
interface Clause {
  field: 'k' | 'j';
  order: 'asc' | 'desc';
  mode: 'min' | 'max' | null;
  missing: Missing | null;
}
type Doc = Record<string, string[]>;

/** What Elasticsearch answers, worked out from the documents' values: the sort value of each clause, and the order of two lists of them. */
function reference(docs: Doc[], clauses: Clause[]) {
  const value = (doc: Doc, c: Clause): string | null => {
    const values = [...(doc[c.field] ?? [])].sort(compareUtf8);
    if (values.length === 0) return c.missing === null || c.missing === '_last' || c.missing === '_first' ? null : c.missing;
    return (c.mode ?? (c.order === 'asc' ? 'min' : 'max')) === 'min' ? values[0] : values[values.length - 1];
  };
  const compare = (a: (string | null)[], b: (string | null)[]) => {
    for (let i = 0; i < clauses.length; i++) {
      const [x, y] = [a[i], b[i]];
      if (x === y) continue;
      const last = clauses[i].missing === '_first' ? -1 : 1;
      if (x === null) return last;
      if (y === null) return -last;
      const c = compareUtf8(x, y);
      return clauses[i].order === 'desc' ? -c : c;
    }
    return 0;
  };
  const keyed = docs.map((doc, n) => ({ id: `d${n}`, n, sort: clauses.map((c) => value(doc, c)) }));
  return { keyed, compare };
}

const clause = fc.record<Clause>({
  field: fc.constantFrom('k', 'j'),
  order: fc.constantFrom('asc', 'desc'),
  mode: fc.constantFrom(null, 'min', 'max'),
  missing: fc.constantFrom(null, '_last', '_first', 'ab', 'aa', '\uFFFE'),
});
const doc = fc.record({ k: fc.array(fc.constantFrom(...TERMS), { maxLength: 3 }), j: fc.array(fc.constantFrom(...TERMS), { maxLength: 2 }) }, { requiredKeys: [] });

describe('sort on keyword fields (term ordinals while collecting)', () => {
  it('gives the pages, sort values and search_after continuations of the terms themselves', () => {
    fc.assert(
      fc.property(
        fc.array(doc, { minLength: 1, maxLength: 30 }),
        fc.array(clause, { minLength: 1, maxLength: 2 }),
        fc.integer({ min: 1, max: 12 }),
        fc.option(fc.array(fc.option(fc.constantFrom(...TERMS, 'aa', 'b\uFFFF'), { nil: null }), { minLength: 2, maxLength: 2 }), { nil: undefined }),
        (docs, clauses, size, after) => {
          const index = indexAll(
            new SearchIndex({ keyword: ['k', 'j'] }),
            docs.map((d, n) => [`d${n}`, d]),
          );
          const sort = clauses.map((c) => ({ [c.field]: { order: c.order, ...(c.mode === null ? {} : { mode: c.mode }), ...(c.missing === null ? {} : { missing: c.missing }) } }));
          const { keyed, compare } = reference(docs, clauses);
          const expected = [...keyed].sort((a, b) => compare(a.sort, b.sort) || a.n - b.n);
          // the first page, then the one after its last hit
          const first = index.search({ from: 0, size, sort });
          expect(first.hits.map((h) => [h._id, h.sort])).toEqual(expected.slice(0, size).map((e) => [e.id, e.sort]));
          const last = first.hits.at(-1)!;
          const next = index.search({ from: 0, size, sort, search_after: last.sort });
          const rest = expected.filter((e) => compare(e.sort, last.sort as (string | null)[]) > 0);
          expect(next.hits.map((h) => h._id)).toEqual(rest.slice(0, size).map((e) => e.id));
          // search_after values that need not be terms of the dictionary
          if (after !== undefined) {
            const values = after.slice(0, clauses.length);
            const page = index.search({ from: 0, size, sort, search_after: values });
            expect(page.hits.map((h) => h._id)).toEqual(expected.filter((e) => compare(e.sort, values) > 0).slice(0, size).map((e) => e.id));
          }
          // a query matching few documents (its keys read as text) agrees with the same documents' order
          const few = index.search({ from: 0, size: 30, sort, query: { ids: { values: ['d0'] } } });
          expect(few.hits.map((h) => [h._id, h.sort])).toEqual(expected.filter((e) => e.n < 1).map((e) => [e.id, e.sort]));
        },
      ),
      { seed: 13, numRuns: 300 },
    );
  });

  it('makes the text of the page\'s keys only, not of every document it looks at', () => {
    const docs: [string, Record<string, unknown>][] = Array.from({ length: 3000 }, (_, n) => [`d${n}`, { k: `term ${(n * 7919) % 3000}`, j: [`x${n % 7}`, `y${n % 5}`] }]);
    const index = indexAll(new SearchIndex({ keyword: ['k', 'j'] }), docs);
    const sort = [{ j: 'desc' }, { k: 'asc' }];
    index.search({ from: 0, size: 10, sort }); // the dictionaries put in order once (as a pattern or range query would)
    const made = jest.spyOn(TermHash.prototype, 'term');
    const page = index.search({ from: 0, size: 10, sort });
    // the largest j is y4 for every fifth document; among those, k ascending
    const expected = docs.filter((_, n) => n % 5 === 4).map(([, d]) => d.k as string).sort(compareUtf8).slice(0, 10);
    expect(page.hits.map((h) => h.sort)).toEqual(expected.map((k) => ['y4', k]));
    // the page's two keys and its _id (a dictionary too), not the 600 documents with y4 or the 3,000 looked at
    expect(made.mock.calls.length).toBeLessThanOrEqual(3 * 10);
    made.mockRestore();
    // a page of more than 100 hits is written as text (pageText.ts): its sort values are the terms too
    const large = index.search({ from: 0, size: 250, sort });
    const byJ = (n: number) => `y${n % 5}` > `x${n % 7}` ? `y${n % 5}` : `x${n % 7}`;
    const all = docs.map(([id, d], n) => ({ id, sort: [byJ(n), d.k as string], n }));
    all.sort((a, b) => -compareUtf8(a.sort[0], b.sort[0]) || compareUtf8(a.sort[1], b.sort[1]) || a.n - b.n);
    expect(large.hits.map((h) => [h._id, h.sort])).toEqual(all.slice(0, 250).map((e) => [e.id, e.sort]));
  });
});
