/**
 * Request shapes of function_score and boosting: the Elasticsearch store checks them with the
 * embedded store's parsers (same parameters accepted, same 400s), then sends them to the cluster
 * exactly as the client wrote them, inside the tenant filter (filtered functions included: a
 * function's filter only picks among the documents the tenant filter lets through).
 */
import { expectRefusedBeforeSending, expectSentUnchanged } from './testing/requestShapes';

const QUERIES: Record<string, unknown>[] = [
  { function_score: { query: { match: { name: 'france' } }, field_value_factor: { field: 'population', factor: 1.2, modifier: 'log1p', missing: 1 } } },
  { function_score: { query: { match_all: {} }, gauss: { created: { origin: 'now', scale: '10d', offset: '1d', decay: 0.5 } }, boost_mode: 'replace' } },
  {
    function_score: {
      query: { match: { name: 'france' } },
      functions: [
        { filter: { term: { eu: true } }, weight: 3 },
        { exp: { area: { origin: 500, scale: 100 } }, weight: 2 },
        { linear: { population: { origin: 50, scale: 10 }, multi_value_mode: 'avg' } },
        { random_score: { seed: 42 } },
      ],
      score_mode: 'avg',
      boost_mode: 'sum',
      max_boost: 10,
      min_score: 0.5,
      boost: 2,
      _name: 'ranked',
    },
  },
  { boosting: { positive: { match: { name: 'france' } }, negative: { term: { eu: false } }, negative_boost: 0.2, boost: 1.5 } },
];

describe('Elasticsearch store: function_score and boosting', () => {
  it.each(QUERIES)('sends %j unchanged inside the tenant filter', async (query) => {
    await expectSentUnchanged(query);
  });

  it('sends nothing for what the embedded store refuses (same 400)', async () => {
    await expectRefusedBeforeSending([
      { function_score: { script_score: { script: { source: '1' } } } },
      { function_score: { functions: [{ script_score: { script: { source: '1' } } }] } },
      { function_score: { field_value_factor: { field: 'x', modifier: 'cube' } } },
      { function_score: { gauss: { created: { origin: 'now' } }, exp: { area: { origin: 1, scale: 1 } } } },
      { function_score: { functions: [{ filter: { match_all: {} } }] } },
      { function_score: { score_mode: 'median' } },
      { function_score: { query: { more_like_this: {} } } },
      { boosting: { positive: { match_all: {} }, negative: { match_all: {} } } },
      { boosting: { positive: { match_all: {} }, negative: { match_all: {} }, negative_boost: -1 } },
    ]);
  });
});
