/** The highlighting of a page of hits, through SearchIndex: fields resolved, queries, sources, budget. */
import { QueryDsl, SearchRequest, SearchResult } from '../../../port';
import { DEFAULT_LIMITS } from '../limits';
import { SearchIndex, SearchIndexOptions } from '../searchIndex';

const page = (request: Partial<SearchRequest>): SearchRequest => ({ from: 0, size: 10, ...request });

function countries(options: SearchIndexOptions = {}): SearchIndex {
  const index = new SearchIndex({ keyword: ['id', 'allowTenantIds', 'code'] }, options);
  index.put('fr', { name: 'France', code: 'FR', capital: 'Paris', motto: 'Liberty, equality, fraternity.', tags: ['Europe', 'Republic of France'], population: 68, allowTenantIds: ['acme'] });
  index.put('za', { name: 'South Africa', code: 'ZA', capital: 'Pretoria', motto: 'Unity in diversity. South of Africa.', tags: ['Africa'], population: 62, allowTenantIds: ['*'] });
  index.put('ss', { name: 'South Sudan', code: 'SS', capital: 'Juba', motto: 'Justice, liberty, prosperity.', allowTenantIds: ['*'] });
  return index;
}

function highlights(index: SearchIndex, query: QueryDsl | undefined, highlight: object, extra: Partial<SearchRequest> = {}, filter: QueryDsl | null = null) {
  const result = index.search(page({ query, highlight: highlight as Record<string, unknown>, ...extra }), filter);
  return Object.fromEntries(result.hits.map((h) => [h._id, h.highlight]));
}

describe('highlighting a page of hits', () => {
  it('highlights the fields asked, only those with fragments, as Elasticsearch answers', () => {
    const index = countries();
    expect(highlights(index, { match: { name: 'south' } }, { fields: { name: {}, motto: {} } })).toEqual({
      za: { name: ['<em>South</em> Africa'] },
      ss: { name: ['<em>South</em> Sudan'] },
    });
  });

  it('takes the text and keyword fields a wildcard names, and .keyword values from their parent', () => {
    const index = countries();
    const found = highlights(index, { bool: { should: [{ match: { motto: 'south' } }, { term: { 'name.keyword': 'South Africa' } }, { term: { code: 'ZA' } }] } }, { fields: { '*': {} } });
    expect(found.za).toEqual({ motto: ['<em>South</em> of Africa.'], 'name.keyword': ['<em>South Africa</em>'], code: ['<em>ZA</em>'] });
  });

  it('highlights a field named explicitly whatever its type, a number only with no_match_size', () => {
    const index = countries();
    expect(highlights(index, { term: { population: 68 } }, { fields: { population: {} } })).toEqual({ fr: undefined });
    expect(highlights(index, { term: { population: 68 } }, { fields: { population: { no_match_size: 10 } } })).toEqual({ fr: { population: ['68'] } });
    expect(highlights(index, { match: { name: 'france' } }, { fields: { unmapped: {}, 'nothing*': {} } })).toEqual({ fr: undefined });
  });

  it('uses highlight_query instead of the query, per field or for all', () => {
    const index = countries();
    const h = { highlight_query: { match: { motto: 'liberty' } }, fields: { motto: {}, name: { highlight_query: { match: { name: 'france' } } } } };
    expect(highlights(index, { ids: { values: ['fr'] } }, h)).toEqual({ fr: { motto: ['<em>Liberty</em>, equality, fraternity.'], name: ['<em>France</em>'] } });
  });

  it('highlights terms of any field with require_field_match false', () => {
    const index = countries();
    expect(highlights(index, { match: { name: 'africa' } }, { fields: { motto: { require_field_match: false } } })).toEqual({ za: { motto: ['South of <em>Africa</em>.'] } });
    expect(highlights(index, { match: { name: 'africa' } }, { fields: { motto: {} } })).toEqual({ za: undefined });
  });

  it('never highlights the terms of the caller filter (tenant visibility), only the query', () => {
    const index = countries();
    const filter = { terms: { allowTenantIds: ['acme', '*'] } };
    expect(highlights(index, { match: { name: 'france' } }, { fields: { '*': {} } }, {}, filter)).toEqual({ fr: { name: ['<em>France</em>'] } });
    expect(highlights(index, { match: { name: 'france' } }, { require_field_match: false, fields: { '*': {} } }, {}, filter)).toEqual({
      fr: { name: ['<em>France</em>'], tags: ['Republic of <em>France</em>'] },
    });
    // and no hit the filter hides has any highlight
    expect(highlights(index, { match: { name: 'france' } }, { fields: { '*': {} } }, {}, { terms: { allowTenantIds: ['*'] } })).toEqual({});
  });

  it('highlights from the whole source whatever _source the hits have', () => {
    const index = countries();
    const result = index.search(page({ query: { match: { capital: 'paris' } }, _source: ['code'], highlight: { fields: { capital: {} } } }));
    expect(result.hits.map((h) => [h._source, h.highlight])).toEqual([[{ code: 'FR' }, { capital: ['<em>Paris</em>'] }]]);
  });

  it('highlights the returned page only, after from', () => {
    const index = countries();
    const result = index.search(page({ query: { match: { name: 'south' } }, from: 1, size: 1, highlight: { fields: { name: {} } } }));
    expect(result.hits.map((h) => [h._id, h.highlight])).toEqual([['ss', { name: ['<em>South</em> Sudan'] }]]);
  });

  it('puts highlight after _source and before sort, as Elasticsearch writes a hit', () => {
    const index = countries();
    const hit = index.search(page({ query: { match: { name: 'france' } }, sort: ['code'], highlight: { fields: { name: {} } } })).hits[0];
    expect(Object.keys(hit)).toEqual(['_id', '_score', '_source', 'highlight', 'sort']);
  });

  it('refuses a bad highlight before searching, and a field over max_analyzed_offset', () => {
    const index = countries();
    expect(() => index.search(page({ highlight: { fields: { name: { type: 'plain' } } } }))).toThrow('highlighter type [plain] is not supported');
    const small = new SearchIndex(undefined, { limits: { ...DEFAULT_LIMITS, maxAnalyzedOffset: 10 } });
    small.put('1', { text: 'a long text about a fox' });
    expect(() => small.search(page({ query: { match: { text: 'fox' } }, highlight: { fields: { text: {} } } }))).toThrow(expect.objectContaining({ limit: 'max_analyzed_offset' }));
    expect(small.search(page({ query: { match: { text: 'long' } }, highlight: { fields: { text: { max_analyzed_offset: 5 } } } })).hits[0].highlight).toEqual({ text: ['a <em>long</em> text about a fox'] });
  });

  it('highlights between slices, as a search run at once', async () => {
    const request = page({ query: { match: { motto: 'liberty' } }, highlight: { fields: { '*': {} } } });
    const sliced = countries({ sliceMs: 0 }).searchSliced(request);
    expect(await sliced).toEqual(countries().search(request));
  });

  it('stops highlighting at the deadline: hits not highlighted yet stay without, timed_out', async () => {
    let now = 0;
    const index = new SearchIndex(undefined, { timeoutMs: 1_000_000, clock: () => now });
    for (let i = 0; i < 50; i++) index.put(`d${i}`, { text: `fox number ${i}`, other: `fox ${i}` });
    // time stands still while searching, then passes quickly once highlighting starts
    const request = page({ query: { match: { text: 'fox' } }, size: 50, highlight: { fields: { text: {}, other: {} } } });
    const clock = index as unknown as { clock: () => number };
    let reads = 0;
    clock.clock = () => (reads++ > 30 ? 2_000_000 : 0);
    const result = (await index.searchSliced(request)) as SearchResult;
    expect(result.timed_out).toBe(true);
    expect(result.hits).toHaveLength(50);
    expect(result.hits.filter((h) => h.highlight !== undefined).length).toBeLessThan(50);
  });
});
