import { InvalidQueryError } from '../../../port';
import { SearchIndex } from '../searchIndex';
import { COUNTRIES, indexAll } from '../testing';

const NOW = Date.parse('2024-03-15T13:45:30.000Z');
const index = indexAll(new SearchIndex({ keyword: ['id'], date: ['seen'] }), [
  ...COUNTRIES,
  ['4', { id: '4', name: 'Iceland', seen: '2024-03-14T10:00:00Z', population: -2 }],
  ['5', { id: '5', name: 'Japan', seen: '2024-03-15T00:00:00Z' }],
]);
const ids = (query: Record<string, unknown>) => index.search({ query, from: 0, size: 10 }).hits.map((h) => h._id);

beforeEach(() => jest.spyOn(Date, 'now').mockReturnValue(NOW));
afterEach(() => jest.restoreAllMocks());

describe('range', () => {
  it('compares longs, with decimal bounds and open bounds', () => {
    expect(ids({ range: { population: { gte: 60, lt: 68 } } })).toEqual(['3']);
    expect(ids({ range: { population: { gt: 59.5 } } })).toEqual(['1', '3']);
    expect(ids({ range: { population: { lte: -1.5 } } })).toEqual(['4']);
    expect(ids({ range: { population: { gte: null, lt: 1 } } })).toEqual(['2', '4']);
    expect(ids({ range: { population: { from: 0, to: 60, include_upper: false } } })).toEqual(['2']);
    expect(ids({ range: { population: { gt: 60, lt: 60 } } })).toEqual([]);
  });

  it('compares floats in 32 bits', () => {
    expect(ids({ range: { area: { gte: 83.5, lte: 551.5 } } })).toEqual(['1', '2']);
    expect(ids({ range: { area: { gt: '551.5' } } })).toEqual(['3']);
  });

  it('evaluates date math with Elasticsearch rounding', () => {
    // now = 2024-03-15T13:45:30Z: now-1d/d rounds down to 2024-03-14T00:00 for gte
    expect(ids({ range: { seen: { gte: 'now-1d/d' } } })).toEqual(['4', '5']);
    // gt rounds up: after the whole of 2024-03-14
    expect(ids({ range: { seen: { gt: 'now-1d/d' } } })).toEqual(['5']);
    // lte rounds up to the end of the day, lt rounds down to its start
    expect(ids({ range: { seen: { lte: '2024-03-14' } } })).toEqual(['4']);
    expect(ids({ range: { seen: { lt: '2024-03-15' } } })).toEqual(['4']);
    expect(ids({ range: { created: { gte: '1950', lt: '1960' } } })).toEqual(['1']);
    expect(ids({ range: { seen: { gte: Date.parse('2024-03-15T00:00:00Z') } } })).toEqual(['5']);
  });

  it('supports time_zone and format on dates', () => {
    // midnight at +14:00 is 10:00 UTC the day before
    expect(ids({ range: { seen: { gte: '2024-03-15', time_zone: '+14:00' } } })).toEqual(['4', '5']);
    expect(ids({ range: { seen: { gte: '1710374400000', format: 'epoch_millis' } } })).toEqual(['4', '5']);
    expect(ids({ range: { seen: { gte: 1710460800, format: 'epoch_second' } } })).toEqual(['5']);
    expect(() => ids({ range: { seen: { gte: '2024', format: 'dd/MM/yyyy' } } })).toThrow('not supported');
    expect(() => ids({ range: { population: { gte: 1, time_zone: 'UTC' } } })).toThrow('time_zone can not be applied to non date field');
    expect(() => ids({ range: { seen: { gte: 'yesterday' } } })).toThrow(InvalidQueryError);
  });

  it('ranges over terms in UTF-8 order on keyword, text and boolean fields', () => {
    expect(ids({ range: { 'code.keyword': { gte: 'FR', lt: 'ZA' } } })).toEqual(['1', '2']);
    expect(ids({ range: { name: { gte: 'g', lte: 'k' } } })).toEqual(['2', '4', '5']); // guiana, iceland, japan
    expect(ids({ range: { name: { gte: 'g', lte: 'j' } } })).toEqual(['2', '4']); // "japan" sorts after "j"
    expect(ids({ range: { eu: { gt: false } } })).toEqual(['1', '2']);
  });

  it('is constant-score with a boost, and matches nothing on unmapped fields', () => {
    const r = index.search({ query: { range: { population: { gte: 60, boost: 2 } } }, from: 0, size: 10 });
    expect(r.hits.map((h) => h._score)).toEqual([2, 2]);
    expect(ids({ range: { nope: { gte: 1 } } })).toEqual([]);
  });

  it('rejects malformed ranges', () => {
    expect(() => ids({ range: { population: { gte: 'many' } } })).toThrow(InvalidQueryError);
    expect(() => ids({ range: { population: 5 } })).toThrow('must be an object');
    expect(() => ids({ range: { population: { gte: [1] } } })).toThrow('query.range.population.gte');
    expect(() => ids({ range: { population: { above: 1 } } })).toThrow('unsupported parameter "above" for [range]');
    expect(() => ids({ range: { _id: { gte: 'a' } } })).toThrow(InvalidQueryError);
  });
});
