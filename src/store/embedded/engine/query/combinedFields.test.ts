import { luceneString } from '../explain/luceneString';
import { compileMatcher } from '../matcher';
import { SearchIndex } from '../searchIndex';
import { DEFAULT_LIMITS } from '../limits';
import { parseQuery } from './parse';

const DOCS: [string, Record<string, string>][] = [
  ['a', { title: 'apple pear', body: 'apple apple tree' }],
  ['b', { title: 'tree', body: 'pear apple' }],
  ['c', { title: 'apple' }],
  ['d', { title: 'red', body: 'x y z w v u t s r q p o apple' }],
];
const index = new SearchIndex();
for (const [id, source] of DOCS) index.put(id, source);
const search = (query: Record<string, unknown>, filter?: Record<string, unknown>) => index.search({ query, from: 0, size: 10 }, filter);
const hits = (query: Record<string, unknown>) => search(query).hits.map((h) => [h._id, h._score]);

describe('combined_fields', () => {
  it('scores the fields as one (BM25F): weighted frequencies and lengths summed, statistics merged', () => {
    // title: docCount 4, sumTotalTermFreq 5, apple in 2; body: docCount 3, sumTotalTermFreq 18, apple in 3
    // docFreq = max(2, 3) = 3, N = max(4, 3) = 4, avgdl = (5 + 18) / 4 = 5.75, idf = ln(1 + 1.5 / 3.5) = 0.35667494
    // a: freq 1 + 2 = 3, length 2 + 3 = 5; c (no body: adds nothing): freq 1, length 1; b: freq 1, length 3; d: freq 1, length 14
    // score = 2.2 idf * freq / (freq + 1.2 (0.25 + 0.75 dl / avgdl))
    expect(hits({ combined_fields: { query: 'apple', fields: ['title', 'body'] } })).toEqual([
      ['a', 0.5766055],
      ['c', 0.53873885],
      ['b', 0.4434337],
      ['d', 0.2247541],
    ]);
  });

  it('multiplies frequencies and lengths by the weights, a lone field and a lone pair included (no TermQuery rewrite, LUCENE-10039)', () => {
    // title^2: sumTotalTermFreq 2 * 5 = 10, avgdl 2.5, idf(2, 4) = ln 2; c: freq 2, length 2; a: freq 2, length 4
    expect(hits({ combined_fields: { query: 'apple', fields: ['title^2'] } })).toEqual([
      ['c', 1.0098832],
      ['a', 0.8154672],
    ]);
    // "red" is only in d's title; body^1.5: sumTotalTermFreq trunc(1.5 * 18) + 5 = 32, avgdl 8;
    // d's length round(1 + 1.5 * 13) = round(20.5) = 21; idf(1, 4) = 1.2039728
    expect(hits({ combined_fields: { query: 'red', fields: ['title', 'body^1.5'] } })).toEqual([['d', 0.72320557]]);
  });

  it('builds one CombinedFieldQuery per token, combined by operator and minimum_should_match', () => {
    const build = (body: Record<string, unknown>) => luceneString(parseQuery({ combined_fields: body }).toLucene({ mapping: index.mappingCopy(), now: 0, limits: DEFAULT_LIMITS }));
    expect(build({ query: 'Apple tree', fields: ['title^2', 'body'] })).toBe('CombinedFieldQuery((body title^2.0)(apple)) CombinedFieldQuery((body title^2.0)(tree))');
    expect(build({ query: 'apple tree', fields: ['title'], operator: 'and' })).toBe('+CombinedFieldQuery((title)(apple)) +CombinedFieldQuery((title)(tree))');
    // a pattern names the keyword sub-fields too, which Elasticsearch refuses
    expect(() => build({ query: 'apple', fields: ['t*'] })).toThrow('Field [title.keyword] of type [keyword] does not support [combined_fields] queries');
    expect(build({ query: 'apple tree red', fields: ['title'], minimum_should_match: 2 })).toBe('CombinedFieldQuery((title)(apple)) CombinedFieldQuery((title)(tree)) CombinedFieldQuery((title)(red))~2');
    expect(build({ query: 'apple', fields: ['title'], boost: 3 })).toBe('(CombinedFieldQuery((title)(apple)))^3.0');
    expect(hits({ combined_fields: { query: 'apple tree', fields: ['title', 'body'], operator: 'and' } }).map(([id]) => id).sort()).toEqual(['a', 'b']);
    // d has red in its title and apple in its body: two words of three, in the combined field
    expect(hits({ combined_fields: { query: 'apple tree red', fields: ['title', 'body'], minimum_should_match: '2' } }).map(([id]) => id).sort()).toEqual(['a', 'b', 'd']);
    expect(hits({ combined_fields: { query: 'apple tree red', fields: ['title', 'body'], minimum_should_match: '3' } })).toEqual([]);
  });

  it('zero_terms_query, unmapped fields', () => {
    expect(search({ combined_fields: { query: '!!', fields: ['title'] } }).total).toBe(0);
    expect(search({ combined_fields: { query: '!!', fields: ['title'], zero_terms_query: 'all' } }).total).toBe(4);
    expect(search({ combined_fields: { query: 'apple', fields: ['nothing', 'other*'] } }).total).toBe(0);
    // an unmapped field beside mapped ones is skipped
    expect(hits({ combined_fields: { query: 'red', fields: ['title', 'body^1.5', 'nothing'] } })).toEqual([['d', 0.72320557]]);
  });

  it('refuses what Elasticsearch refuses', () => {
    expect(() => search({ combined_fields: { fields: ['title'] } })).toThrow('[combined_fields] requires query value');
    expect(() => search({ combined_fields: { query: 3, fields: ['title'] } })).toThrow('"query" at query.combined_fields.query must be a string');
    expect(() => search({ combined_fields: { query: 'apple' } })).toThrow('at least one field must be provided');
    expect(() => search({ combined_fields: { query: 'apple', fields: ['title^0.5'] } })).toThrow('[combined_fields] requires field boosts to be >= 1.0');
    expect(() => search({ combined_fields: { query: 'apple', fields: ['title', 'title.keyword'] } })).toThrow('Field [title.keyword] of type [keyword] does not support [combined_fields] queries');
    expect(() => search({ combined_fields: { query: 'apple', fields: ['title'], operator: 'xor' } })).toThrow('operator');
    expect(() => search({ combined_fields: { query: 'apple', fields: ['title'], zero_terms_query: 'some' } })).toThrow('zero_terms_query');
    expect(() => search({ combined_fields: { query: 'apple', fields: ['title'], auto_generate_synonyms_phrase_query: 'yes' } })).toThrow('auto_generate_synonyms_phrase_query');
    expect(() => search({ combined_fields: { query: 'apple', fields: ['title'], fuzziness: 1 } })).toThrow('unsupported parameter "fuzziness" for [combined_fields]');
  });

  it("analyzes with the fields' search analyzer, which they must share", () => {
    const english = new SearchIndex();
    english.declareMapping({ dynamic: 'true', properties: { title: { type: 'text', analyzer: 'english' }, body: { type: 'text', analyzer: 'english' }, note: { type: 'text' }, tag: { type: 'text', analyzer: 'whitespace', search_analyzer: 'english' } } });
    english.put('a', { title: 'Running races', body: 'the runner runs' });
    english.put('b', { title: 'A walk', body: 'walking' });
    const ids = (query: Record<string, unknown>) => english.search({ query, from: 0, size: 10 }).hits.map((h) => h._id);
    // english stems "runs" and "running" to "run", and drops "the"
    expect(ids({ combined_fields: { query: 'the runs', fields: ['title', 'body'] } })).toEqual(['a']);
    expect(ids({ combined_fields: { query: 'the', fields: ['title', 'body'], zero_terms_query: 'all' } }).sort()).toEqual(['a', 'b']);
    // the search analyzer decides, not the index analyzer
    expect(() => ids({ combined_fields: { query: 'runs', fields: ['title', 'tag'] } })).not.toThrow();
    expect(() => ids({ combined_fields: { query: 'runs', fields: ['title', 'note'] } })).toThrow('All fields in [combined_fields] query must have the same search analyzer');
  });

  it('explains each hit with the combined frequency and length, values equal to the scores', () => {
    const result = index.search({ query: { combined_fields: { query: 'apple red', fields: ['title', 'body^1.5'] } }, from: 0, size: 10, explain: true });
    for (const hit of result.hits) expect(hit._explanation?.value).toBe(hit._score);
    const d = result.hits.find((h) => h._id === 'd');
    expect(d?._explanation?.details[0].description).toBe('weight(CombinedFieldQuery((body^1.5 title)(apple)) in 3), result of:');
    const tf = d?._explanation?.details[0].details[0].details[2];
    expect(tf?.details.map((e) => [e.description, e.value])).toEqual([
      ['termFreq=1.5', 1.5],
      ['k1, term saturation parameter', 1.2],
      ['b, length normalization parameter', 0.75],
      ['dl, length of field', 21],
      ['avgdl, average length of field', 8],
    ]);
  });

  it('never shows, counts or explains what the caller filter excludes', () => {
    const result = index.search({ query: { combined_fields: { query: 'apple', fields: ['title', 'body'] } }, from: 0, size: 10, explain: true }, { ids: { values: ['b', 'c'] } });
    expect(result.hits.map((h) => h._id)).toEqual(['c', 'b']);
    expect(result.total).toBe(2);
    expect(JSON.stringify(result.hits.map((h) => h._explanation))).not.toContain('_id');
  });

  it('highlights its terms in each of its fields', () => {
    const result = index.search({ query: { combined_fields: { query: 'pear', fields: ['title', 'body'] } }, from: 0, size: 10, highlight: { fields: { title: {}, body: {} } } });
    expect(result.hits.map((h) => [h._id, h.highlight])).toEqual([
      ['b', { body: ['<em>pear</em> apple'] }],
      ['a', { title: ['apple <em>pear</em>'] }],
    ]);
  });

  it('matches single documents for live subscriptions as searches do', () => {
    const matches = compileMatcher({ combined_fields: { query: 'pear plum', fields: ['title', 'body'], operator: 'and' } }, () => index.mappingCopy());
    expect(matches({ title: 'a pear', body: 'and a plum' })).toBe(true);
    expect(matches({ title: 'a pear', body: 'and an apple' })).toBe(false);
  });
});
