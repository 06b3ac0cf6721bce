/** Elasticsearch's query limits, each refused with a QueryLimitError naming it (the core answers 400 services.storage.<limit>). */
import { InvalidDocumentError, QueryLimitError } from '../../port';
import { DEFAULT_LIMITS } from './limits';
import { SearchIndex } from './searchIndex';

const index = new SearchIndex(undefined, { limits: { ...DEFAULT_LIMITS, maxClauseCount: 10, maxTermsCount: 5, maxQueryDepth: 4 } });
index.put('a', { name: 'alpha beta', code: 'A' });
const search = (query: Record<string, unknown>) => index.search({ query, from: 0, size: 10 });

function limitOf(run: () => unknown): QueryLimitError {
  try {
    run();
  } catch (err) {
    if (err instanceof QueryLimitError) return err;
    throw err;
  }
  throw new Error('no limit was hit');
}

describe('query limits', () => {
  it('counts the leaf clauses of the whole query, nested or not (Lucene 9)', () => {
    const terms = (n: number) => Array.from({ length: n }, (_, i) => ({ term: { code: `c${i}` } }));
    expect(search({ bool: { should: terms(10) } }).total).toBe(0);
    const flat = limitOf(() => search({ bool: { should: terms(11) } }));
    expect(flat.limit).toBe('too_many_clauses');
    expect(flat.message).toBe('Query contains too many nested clauses; maxClauseCount is set to 10');
    // nesting does not get around it
    expect(limitOf(() => search({ bool: { should: [{ bool: { should: terms(6) } }, { bool: { should: terms(6) } }] } })).limit).toBe('too_many_clauses');
    // a match of many words is as many clauses, a phrase one per term
    expect(limitOf(() => search({ match: { name: 'a b c d e f g h i j k' } })).limit).toBe('too_many_clauses');
    expect(limitOf(() => search({ match_phrase: { name: 'a b c d e f g h i j k' } })).limit).toBe('too_many_clauses');
    // the caller's filter is not counted
    expect(index.search({ query: { bool: { should: terms(10) } }, from: 0, size: 1 }, { bool: { should: terms(5) } }).total).toBe(0);
  });

  it('limits the values of a terms query (index.max_terms_count)', () => {
    expect(search({ terms: { code: ['a', 'B', 'C', 'D', 'E'] } }).total).toBe(1);
    const over = limitOf(() => search({ terms: { code: ['A', 'B', 'C', 'D', 'E', 'F'] } }));
    expect(over.limit).toBe('too_many_terms');
    expect(over.props).toEqual({ count: 6, limit: 5 });
  });

  it('limits nesting (indices.query.bool.max_nested_depth), naming where', () => {
    let query: Record<string, unknown> = { match_all: {} };
    for (let i = 0; i < 3; i++) query = { bool: { must: query } };
    expect(search(query).total).toBe(1);
    const over = limitOf(() => search({ bool: { must: query } }));
    expect(over.limit).toBe('query_too_deep');
    expect(over.props).toEqual({ path: 'query.bool.must.bool.must.bool.must.bool.must', limit: 4 });
  });

  it('limits the fields an index maps (index.mapping.total_fields.limit), objects and keyword sub-fields counted', () => {
    const small = new SearchIndex(undefined, { limits: { ...DEFAULT_LIMITS, maxFields: 6 } });
    small.checkFields([{ a: 'text', n: 1, o: { x: true } }]); // a, a.keyword, n, o, o.x: 5
    small.put('1', { a: 'text', n: 1, o: { x: true } });
    small.checkFields([{ a: 'again', b: 2 }]); // + b: 6
    expect(() => small.checkFields([{ b: 2 }, { c: 3 }])).toThrow('Limit of total fields [6] has been exceeded while adding new fields [2]');
    expect(() => small.checkFields([{ big: Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`f${i}`, i])) }])).toThrow(InvalidDocumentError);
    expect(() => small.checkFields([{ list: [null, [{ deep: 'x' }]] }])).toThrow(InvalidDocumentError); // list, list.deep, list.deep.keyword
  });

  it('refuses 3,000 nested bools with the limit, not a stack overflow', () => {
    let query: Record<string, unknown> = { match_all: {} };
    for (let i = 0; i < 3000; i++) query = { bool: { must: [query] } };
    expect(limitOf(() => new SearchIndex().search({ query, from: 0, size: 1 })).limit).toBe('query_too_deep');
  });
});
