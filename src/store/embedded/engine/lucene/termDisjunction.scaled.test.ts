/**
 * A function_score over a match, ranked by the term disjunction with its pruning (termDisjunction.ts,
 * "scale"), answers exactly what the general evaluator answers: the same search with a top-level
 * min_score of 0 (no score is below it) takes the general path and is the reference.
 */
import fc from 'fast-check';
import { SearchIndex } from '../searchIndex';
import { buildQuery, parseSearchQuery } from '../search';
import { IndexMapping } from '../mapping';
import { InvertedIndex } from '../invertedIndex';
import { disjunctionShape } from './termDisjunction';

const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'eps'];
const DAY = 86_400_000;

function corpus(seed: number): SearchIndex {
  const index = new SearchIndex();
  let x = seed;
  const next = () => (x = (Math.imul(x, 1103515245) + 12345) >>> 0);
  for (let i = 0; i < 1500; i++) {
    const name = Array.from({ length: 1 + (next() % 6) }, () => WORDS[next() % WORDS.length]).join(' ');
    const doc: Record<string, unknown> = { name, tenant: i % 3 === 0 ? 'a' : 'b' };
    if (next() % 10 !== 0) doc.rank = next() % 1000; // a tenth without a rank
    if (next() % 7 === 0) doc.rank = [next() % 1000, next() % 1000]; // some with two
    doc.published = new Date(Date.UTC(2020, 0, 1) + (next() % 2000) * DAY).toISOString();
    index.put(`d${i}`, doc);
  }
  for (let i = 0; i < 1500; i += 11) index.remove(`d${i}`);
  return index;
}

const functionArb = fc.oneof(
  fc.record({
    field_value_factor: fc.record(
      {
        field: fc.constant('rank'),
        factor: fc.constantFrom(0.5, 1, 1.2, 3),
        modifier: fc.constantFrom('none', 'log1p', 'log2p', 'ln1p', 'ln2p', 'sqrt', 'square', 'reciprocal', 'log'),
        missing: fc.constantFrom(1, 0, 7.5),
      },
      { requiredKeys: ['field'] },
    ),
  }),
  fc.record({ gauss: fc.record({ rank: fc.record({ origin: fc.constantFrom(0, 500, 2000, -10), scale: fc.constantFrom(10, 300), offset: fc.constantFrom(0, 50) }) }) }),
  fc.record({ exp: fc.record({ published: fc.record({ origin: fc.constantFrom('2026-01-01', '2021-06-01', '2019-01-01'), scale: fc.constantFrom('10d', '300d') }) }) }),
  fc.record({ linear: fc.record({ rank: fc.record({ origin: fc.constantFrom(100, 999), scale: fc.constantFrom(200, 5000) }), multi_value_mode: fc.constantFrom('min', 'max', 'avg', 'sum', 'median') }) }),
  fc.record({ weight: fc.constantFrom(0.5, 2, 0) }),
);

describe('function_score over a match, pruned', () => {
  const indexes = [corpus(1), corpus(7)];

  it('ranks and counts as the general evaluator does', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1 }),
        fc.uniqueArray(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }),
        functionArb,
        fc.option(fc.constantFrom(2, 0.5), { nil: undefined }),
        fc.option(fc.constantFrom(0.3, 1.5, 100), { nil: undefined }),
        fc.option(fc.constantFrom(1.5, 2), { nil: undefined }),
        fc.constantFrom(1, 3, 10, 50),
        (which, words, fn, weight, maxBoost, boost, size) => {
          const index = indexes[which];
          const functionScore: Record<string, unknown> = { query: { match: { name: words.join(' ') } }, ...fn };
          if (weight !== undefined && !('weight' in fn)) functionScore.weight = weight;
          if (maxBoost !== undefined) functionScore.max_boost = maxBoost;
          if (boost !== undefined) functionScore.boost = boost;
          const body = { query: { function_score: functionScore }, from: 0, size };
          const filter = { term: { 'tenant.keyword': 'b' } };
          let direct: unknown;
          let general: unknown;
          try {
            direct = index.search(body, filter);
          } catch (err) {
            direct = String(err);
          }
          try {
            general = index.search({ ...body, min_score: 0 }, filter);
          } catch (err) {
            general = String(err);
          }
          expect(direct).toEqual(general);
        },
      ),
      { numRuns: 400, seed: 19 },
    );
  });

  it('takes the pruned path only when the function bounds its factors and never refuses a document', () => {
    const index = corpus(3);
    // (the index's own structures: what the search runs the shape on)
    const { index: inner, mapping } = index as unknown as { index: InvertedIndex; mapping: IndexMapping };
    const shape = (fs: Record<string, unknown>) => {
      const parsed = parseSearchQuery({ function_score: { query: { match: { name: 'alpha beta' } }, ...fs } }, null);
      return disjunctionShape(buildQuery(parsed, mapping, Date.now()), inner);
    };
    expect(shape({ field_value_factor: { field: 'rank', modifier: 'log1p', missing: 1 } })?.scale?.max).toBeCloseTo(Math.log10(1000), 6);
    // a tenth of the documents have no rank: refused without "missing"
    expect(shape({ field_value_factor: { field: 'rank', modifier: 'log1p' } })).toBeNull();
    // log(0) is -Infinity: refused
    expect(shape({ field_value_factor: { field: 'rank', modifier: 'log', missing: 1 } })).toBeNull();
    expect(shape({ gauss: { rank: { origin: 500, scale: 10 } } })?.scale?.max).toBeCloseTo(1, 6);
    expect(shape({ field_value_factor: { field: 'rank', missing: 1 }, boost_mode: 'sum' })).toBeNull();
    expect(shape({ field_value_factor: { field: 'rank', missing: 1 }, min_score: 1 })).toBeNull();
    expect(shape({ functions: [{ filter: { term: { 'tenant.keyword': 'a' } }, weight: 2 }] })).toBeNull();
    expect(shape({ random_score: {} })).toBeNull();
  });
});
