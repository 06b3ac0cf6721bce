import { PageText, pageTextResult, type SourceBytes } from './pageText';
import { HITS_BYTES, SOURCE_JSON, type Hit } from '../../port';

const bytesOf = (source: unknown): SourceBytes => {
  const json = Buffer.from(JSON.stringify(source));
  return { length: json.length, copy: (out, at) => json.copy(out, at) };
};

const text = (page: PageText): string => Buffer.concat(page.bytes()).toString('utf8');

describe('PageText', () => {
  it("writes JSON.stringify's text of the hits: ids to escape, null scores, sort values, hits without a source", () => {
    const page = new PageText();
    page.add('plain-id_1', 2.5, bytesOf({ a: 'ü', n: [1, null] }), undefined);
    page.add('quote"\\id\u2028', null, bytesOf({ b: '😀' }), ['x', 1, null, -3.25]);
    page.add('no-source', 0.125, null, ['é']);
    const expected = [
      { _id: 'plain-id_1', _score: 2.5, _source: { a: 'ü', n: [1, null] } },
      { _id: 'quote"\\id\u2028', _score: null, _source: { b: '😀' }, sort: ['x', 1, null, -3.25] },
      { _id: 'no-source', _score: 0.125, sort: ['é'] },
    ];
    expect(text(page)).toBe(JSON.stringify(expected));
    expect(page.length).toBe(3);
    expect(JSON.parse(JSON.stringify(page.hits()))).toEqual(expected);
  });

  it('spreads a large page over several buffers, a hit larger than a buffer in one of its own, and reads every hit back', () => {
    const page = new PageText();
    const expected: object[] = [];
    for (let i = 0; i < 3000; i++) {
      const source = { i, text: `${'lorem ipsum '.repeat(i % 9)}ünï`, big: i === 1500 ? 'x'.repeat(600_000) : '' };
      page.add(`d${i}`, 1 / (i + 1), bytesOf(source), [i, `k${i}`]);
      expected.push({ _id: `d${i}`, _score: 1 / (i + 1), _source: source, sort: [i, `k${i}`] });
    }
    const chunks = page.bytes();
    expect(chunks.length).toBeGreaterThanOrEqual(3);
    expect(Buffer.concat(chunks).toString('utf8')).toBe(JSON.stringify(expected));
    const hits = page.hits();
    expect(hits).toHaveLength(3000);
    expect(hits[1500]._source).toEqual(expected[1500]['_source' as keyof object]);
    expect(JSON.stringify(hits)).toBe(JSON.stringify(expected));
  });

  it('hits read back keep their source as its stored bytes until read, and are theirs to change', () => {
    const page = new PageText();
    page.add('a', 1, bytesOf({ n: 1 }), ['k']);
    const [hit] = page.hits();
    expect(Object.keys(hit)).toEqual(['_id', '_score', '_source', 'sort']);
    expect(hit[SOURCE_JSON]?.toString()).toBe('{"n":1}');
    (hit._source as { n: number }).n = 2;
    expect(hit[SOURCE_JSON]).toBeUndefined();
    expect(page.hits()[0]._source).toEqual({ n: 1 });
  });

  it('gives back the very object of a hit written from one (a source that is not JSON text)', () => {
    const page = new PageText();
    const odd: Hit = { _id: 'odd', _score: null, _source: { zero: -0 }, sort: [1] };
    page.add('a', 1, bytesOf({}), undefined);
    page.addObject(odd);
    expect(text(page)).toBe('[{"_id":"a","_score":1,"_source":{}},{"_id":"odd","_score":null,"_source":{"zero":0},"sort":[1]}]');
    expect(Object.is(page.hits()[1]._source?.zero, -0)).toBe(true);
  });

  it('an empty page is []', () => {
    expect(text(new PageText())).toBe('[]');
  });
});

describe('pageTextResult', () => {
  const page = (): PageText => {
    const p = new PageText();
    p.add('a', 1, bytesOf({ n: 1 }), undefined);
    p.add('b', 0.5, bytesOf({ n: 2 }), undefined);
    return p;
  };

  it("offers the page's bytes until its hits are read, then only the hits read (which may have been changed)", () => {
    const result = pageTextResult(page(), { total: 2, timed_out: true });
    expect(Object.keys(result)).toEqual(['hits', 'total', 'timed_out']);
    expect(Buffer.concat(result[HITS_BYTES]!).toString()).toBe('[{"_id":"a","_score":1,"_source":{"n":1}},{"_id":"b","_score":0.5,"_source":{"n":2}}]');
    result.hits[0]._source = { n: 9 };
    expect(result[HITS_BYTES]).toBeUndefined();
    expect(JSON.stringify(result)).toBe('{"hits":[{"_id":"a","_score":1,"_source":{"n":9}},{"_id":"b","_score":0.5,"_source":{"n":2}}],"total":2,"timed_out":true}');
  });

  it('takes hits assigned to it', () => {
    const result = pageTextResult(page(), { total: 2 });
    result.hits = [];
    expect(result.hits).toEqual([]);
    expect(result[HITS_BYTES]).toBeUndefined();
  });
});
