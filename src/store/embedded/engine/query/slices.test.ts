import fc from 'fast-check';
import { Budget, Steps } from '../budget/budget';
import { luceneString } from '../explain/luceneString';
import { DEFAULT_LIMITS } from '../limits';
import { IndexMapping } from '../mapping';
import { buildQuery, buildQuerySteps, parseSearchQuery, parseSearchQuerySteps } from '../search';
import { parseQuery, parseQuerySteps } from './parse';

const mapping = new IndexMapping({ keyword: ['k'], date: ['d'] });
mapping.parse({ t: 'text', n: 1, k: 'x', d: '2024-01-01' });
const NOW = Date.parse('2024-03-15T12:00:00Z');
const FILTER = { term: { k: 'tenant' } };

/** Steps run to their end; how many times they paused. */
function drive<T>(steps: Steps<T>): { value: T; pauses: number } {
  let pauses = 0;
  for (;;) {
    const next = steps.next();
    if (next.done) return { value: next.value, pauses };
    pauses++;
  }
}

/** A budget whose slice is always over: a sliced parse or build pauses after every new leaf. */
const everyLeaf = () => new Budget(Infinity, 0, () => 0);

/** What parsing and building a query at once gives: its Lucene form, or its error. */
function atOnce(query: Record<string, unknown>, limits = DEFAULT_LIMITS): string {
  try {
    return luceneString(buildQuery(parseSearchQuery(query, FILTER, limits), mapping, NOW, limits));
  } catch (err) {
    return `${(err as Error).name}: ${(err as Error).message}`;
  }
}

/** The same in slices, pausing after every leaf; and how many times it paused. */
function inSlices(query: Record<string, unknown>, limits = DEFAULT_LIMITS): { out: string; pauses: number } {
  let pauses = 0;
  try {
    const parsed = drive(parseSearchQuerySteps(query, FILTER, limits, everyLeaf()));
    const built = drive(buildQuerySteps(parsed.value, mapping, NOW, limits, everyLeaf()));
    pauses = parsed.pauses + built.pauses;
    return { out: luceneString(built.value), pauses };
  } catch (err) {
    return { out: `${(err as Error).name}: ${(err as Error).message}`, pauses };
  }
}

describe('a query parsed and built in slices', () => {
  it('pauses between leaves and builds the query it builds at once', () => {
    const query = { bool: { should: Array.from({ length: 200 }, (_, i) => ({ wildcard: { k: `*a*${i}` } })), filter: [{ range: { n: { gte: 1 } } }, { match: { t: 'two words' } }] } };
    const { out, pauses } = inSlices(query);
    expect(out).toBe(atOnce(query));
    // 202 leaves parsed, then built: a pause after each new one
    expect(pauses).toBe(2 * 202);
  });

  it('never pauses when the slice is not over', () => {
    const query = { bool: { should: Array.from({ length: 50 }, (_, i) => ({ term: { k: `v${i}` } })) } };
    const budget = new Budget(Infinity, 1000, () => 0);
    const parsed = drive(parseQuerySteps(query, 'query', DEFAULT_LIMITS, () => budget.sliceOver()));
    expect(parsed.pauses).toBe(0);
    expect(luceneString(parsed.value.query.toLucene({ mapping, now: NOW, limits: DEFAULT_LIMITS }))).toBe(luceneString(parseQuery(query).toLucene({ mapping, now: NOW, limits: DEFAULT_LIMITS })));
  });

  it('refuses with the error it gives at once, the first in the order the clauses are read', () => {
    const leaves = Array.from({ length: 45 }, (_, i) => ({ term: { k: `v${i}` } }));
    const cases = [
      // a bad leaf after 60 good ones
      { bool: { should: [...leaves.slice(0, 30), { term: { k: { value: 'x', nope: 1 } } }, ...leaves.slice(30)] } },
      // a bad parameter of the bool after its clauses: the bool's own check comes first
      { bool: { should: [...leaves, { term: { k: { value: 'x', nope: 1 } } }], nope: true } },
      // two bad leaves: the first one read
      { bool: { must: [{ dis_max: { queries: [...leaves.slice(0, 10), { regexp: { k: 'a'.repeat(2000) } }] } }], should: [{ range: { n: { gte: 'x' } } }] } },
      // too many clauses (MAX_CLAUSE_COUNT 50 below), once built
      { bool: { should: Array.from({ length: 60 }, (_, i) => ({ term: { k: `v${i}` } })) } },
      // nested too deep under many leaves
      { bool: { should: [...leaves, JSON.parse(`${'{"bool":{"must":['.repeat(40)}{"match_all":{}}${']}}'.repeat(40)}`)] } },
    ];
    const limits = { ...DEFAULT_LIMITS, maxClauseCount: 50 };
    for (const query of cases) {
      const expected = atOnce(query, limits);
      expect(expected).toMatch(/Error/);
      expect(inSlices(query, limits).out).toBe(expected);
    }
  });

  it('parses one object found at two places of a query as it does at once', () => {
    const shared = { wildcard: { k: '*x*' } };
    const query = { bool: { should: [shared, { term: { k: 'y' } }, shared], must: [shared] } };
    expect(inSlices(query).out).toBe(atOnce(query));
  });

  it('gives what it gives at once for any bool tree of good and bad leaves', () => {
    const leaf = fc.oneof(
      fc.nat(30).map((i) => ({ term: { k: `v${i % 7}` } })),
      fc.nat(30).map((i) => ({ wildcard: { k: `*${i}*` } })),
      fc.nat(30).map((i) => ({ match: { t: `w${i} w${i + 1}` } })),
      fc.nat(30).map((i) => ({ range: { n: { gte: i, lt: i + 5 } } })),
      fc.constant({ term: { k: { value: 'x', bad: 1 } } }),
      fc.constant({ prefix: { nope: 'x' } }),
      fc.constant({ exists: { field: 'd' } }),
    );
    const tree = fc.letrec((tie) => ({
      node: fc.oneof(
        { maxDepth: 4, withCrossShrink: true },
        leaf,
        fc.record({ bool: fc.record({ must: fc.array(tie('node'), { maxLength: 4 }), should: fc.array(tie('node'), { maxLength: 4 }), filter: fc.array(tie('node'), { maxLength: 3 }) }, { requiredKeys: [] }) }),
        fc.record({ dis_max: fc.record({ queries: fc.array(tie('node'), { minLength: 1, maxLength: 4 }) }) }),
        fc.record({ constant_score: fc.record({ filter: tie('node'), boost: fc.constantFrom(1, 2) }) }),
      ),
    })).node;
    fc.assert(
      fc.property(tree, (query) => {
        expect(inSlices(query as Record<string, unknown>).out).toBe(atOnce(query as Record<string, unknown>));
      }),
      { seed: 3, numRuns: 300 },
    );
  });
});
