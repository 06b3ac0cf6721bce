import { Explanation } from '../../../port';
import { SearchIndex } from '../searchIndex';
import { COUNTRIES, indexAll } from '../testing';

/**
 * Pinned against Lucene 8.7 (LegacyBM25Similarity, IndexSearcher.explain) on the same four
 * documents, as printed by a Java program over the jars in /usr/share/java; Elasticsearch names the
 * similarity PerFieldSimilarity where Lucene alone prints LegacyBM25Similarity.
 */
const NAMES = ['France', 'French Guiana', 'South Africa', 'france france republic of france and more words here to make it long'];
const index = new SearchIndex({ keyword: ['code'] });
NAMES.forEach((name, i) => index.put(`d${i}`, { name, code: name.slice(0, 2) }));

const explained = (query: Record<string, unknown>, filter: Record<string, unknown> | null = null) => index.search({ query, from: 0, size: 10, explain: true }, filter).hits;
const line = (e: Explanation, depth = 0): string[] => [`${'  '.repeat(depth)}${e.value} = ${e.description}`, ...e.details.flatMap((d) => line(d, depth + 1))];

describe('explain: Lucene 8.7 explanations, values equal to the scores', () => {
  it('explains a term query as BM25Similarity words it', () => {
    const hits = explained({ term: { name: 'france' } });
    expect(hits.map((h) => h._id)).toEqual(['d0', 'd3']);
    expect(line(hits[0]._explanation as Explanation)).toEqual([
      '1.0166159 = weight(name:france in 0) [PerFieldSimilarity], result of:',
      '  1.0166159 = score(freq=1.0), computed as boost * idf * tf from:',
      '    2.2 = boost',
      '    0.6931472 = idf, computed as log(1 + (N - n + 0.5) / (n + 0.5)) from:',
      '      2 = n, number of documents containing term',
      '      4 = N, total number of documents with field',
      '    0.6666666 = tf, computed as freq / (freq + k1 * (1 - b + b * dl / avgdl)) from:',
      '      1 = freq, occurrences of term within document',
      '      1.2 = k1, term saturation parameter',
      '      0.75 = b, length normalization parameter',
      '      1 = dl, length of field',
      '      4.5 = avgdl, average length of field',
    ]);
    const second = line(hits[1]._explanation as Explanation);
    expect(second[0]).toBe('0.77538496 = weight(name:france in 3) [PerFieldSimilarity], result of:');
    expect(second).toContain('    0.5084746 = tf, computed as freq / (freq + k1 * (1 - b + b * dl / avgdl)) from:');
    expect(second).toContain('      13 = dl, length of field');
    for (const hit of hits) expect(hit._explanation?.value).toBe(hit._score);
  });

  it('explains a phrase, a dis_max and a bool with a filter clause', () => {
    const [phrase] = explained({ match_phrase: { name: 'south africa' } });
    const p = line(phrase._explanation as Explanation);
    expect(p[0]).toBe('3.116165 = weight(name:"south africa" in 2) [PerFieldSimilarity], result of:');
    expect(p).toContain('    2.4079456 = idf, sum of:');
    expect(p).toContain('      1 = phraseFreq=1.0');
    expect(p).toContain('    0.58823526 = tf, computed as freq / (freq + k1 * (1 - b + b * dl / avgdl)) from:');

    const dis = explained({ dis_max: { queries: [{ term: { name: 'france' } }, { term: { name: 'republic' } }], tie_breaker: 0.3 } });
    const d3 = dis.find((h) => h._id === 'd3') as (typeof dis)[number];
    expect(line(d3._explanation as Explanation).filter((l) => !l.startsWith('    '))).toEqual([
      '0.9791342 = max plus 0.3 times others of:',
      '  0.77538496 = weight(name:france in 3) [PerFieldSimilarity], result of:',
      '  0.67916405 = weight(name:republic in 3) [PerFieldSimilarity], result of:',
    ]);

    const bool = explained({ bool: { should: [{ term: { name: 'france' } }], filter: [{ term: { code: 'Fr' } }] } });
    const b0 = line(bool.find((h) => h._id === 'd0')?._explanation as Explanation).filter((l) => !l.startsWith('    '));
    expect(b0).toEqual(['1.0166159 = sum of:', '  1.0166159 = weight(name:france in 0) [PerFieldSimilarity], result of:', '  0 = match on required clause, product of:']);
    expect(line(bool.find((h) => h._id === 'd1')?._explanation as Explanation)).toEqual(['0 = sum of:', '  0 = match on required clause, product of:', '    0 = # clause', '    1 = code:Fr']);
  });

  it('explains a keyword term (no norms: dl 1) and constant scores', () => {
    const [kw] = explained({ term: { code: 'Fr' } });
    expect(kw._score).toBe(0.6931471);
    expect(line(kw._explanation as Explanation)).toContain('      1 = avgdl, average length of field');
    expect(explained({ match_all: {} })[0]._explanation).toEqual({ value: 1, description: '*:*', details: [] });
    expect(explained({ constant_score: { filter: { term: { name: 'france' } } } })[0]._explanation).toEqual({ value: 1, description: 'ConstantScore(name:france)', details: [] });
  });

  it('explains a nested query as BlockJoinScorer does: the hit\'s matching objects, the best one\'s explanation', () => {
    const kits = new SearchIndex();
    kits.declareMapping({ dynamic: 'true', properties: { parts: { type: 'nested', properties: { name: { type: 'text' } } } } });
    kits.put('a', { parts: [{ name: 'bolt' }, { name: 'bolt nut' }, { name: 'washer' }] });
    kits.put('b', { parts: [{ name: 'bolt' }] });
    for (const mode of ['avg', 'min', 'max', 'sum']) {
      const hits = kits.search({ query: { nested: { path: 'parts', query: { match: { 'parts.name': 'bolt' } }, score_mode: mode, boost: 2 } }, from: 0, size: 10, explain: true }).hits;
      const a = hits.find((h) => h._id === 'a')!;
      const e = a._explanation as Explanation;
      expect(e.value).toBe(a._score);
      const child = e.details[0];
      expect([e.description, child.description]).toEqual([
        `Score based on 2 child docs in range from 0 to 2, using score mode ${{ avg: 'Avg', min: 'Min', max: 'Max', sum: 'Total' }[mode]}`,
        `weight(parts.name:bolt in ${mode === 'min' ? 1 : 0}) [PerFieldSimilarity], result of:`,
      ]);
      expect(child.details[0].details[0]).toEqual({ value: 4.4, description: 'boost', details: [] });
    }
  });

  it("never shows the caller's visibility filter", () => {
    const tenant = { terms: { code: ['Fr', 'So'] } };
    const hits = explained({ term: { name: 'france' } }, tenant);
    expect(hits.map((h) => h._id)).toEqual(['d0', 'd3'].filter((id) => id === 'd0'));
    expect(JSON.stringify(hits[0]._explanation)).not.toContain('code');
    expect(hits[0]._explanation?.value).toBe(hits[0]._score);
    expect(explained({ match_all: {} }, tenant).every((h) => !JSON.stringify(h._explanation).includes('code'))).toBe(true);
  });

  it('answers no _explanation without explain', () => {
    expect(index.search({ query: { term: { name: 'france' } }, from: 0, size: 1 }).hits[0]).not.toHaveProperty('_explanation');
  });
});

describe('explain: function_score and boosting', () => {
  it('explains the sub-query, the factor and how they combine, the values equal to the scores', () => {
    const index = indexAll(new SearchIndex(), COUNTRIES);
    const run = (query: Record<string, unknown>) => index.search({ query, from: 0, size: 1, explain: true } as never).hits[0];
    const hit = run({ function_score: { query: { match: { name: 'france' } }, functions: [{ filter: { term: { eu: true } }, weight: 3 }, { weight: 2 }], score_mode: 'sum' } });
    const e = hit._explanation as { value: number; description: string; details: { value: number; description: string; details: { value: number }[] }[] };
    expect(e.value).toBe(hit._score);
    expect(e.description).toBe('function score, product of:');
    expect(e.details[1].description).toBe('min of:');
    expect(e.details[1].details[0].value).toBe(5);
    const boosted = run({ boosting: { positive: { match: { name: 'france' } }, negative: { term: { eu: true } }, negative_boost: 0.5 } });
    expect((boosted._explanation as { value: number }).value).toBe(boosted._score);
  });
});
