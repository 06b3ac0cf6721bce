import { InvertedIndex } from '../invertedIndex';
import { IndexMapping } from '../mapping';
import { combine, functionScores } from './functionScore';
import { Matches } from './matches';
import { FLOAT_MAX, FunctionScoreQuery, MATCH_ALL, ScoreFunction } from './query';

const f = Math.fround;
const constant = (value: number, weight = 1): ScoreFunction => ({ filter: null, weight, key: `c${value}`, text: `${value}`, bind: () => () => value });

function setup() {
  const index = new InvertedIndex();
  const mapping = new IndexMapping();
  for (const id of ['a', 'b', 'c']) index.addSource(id, { id }, mapping);
  return index;
}

const node = (over: Partial<FunctionScoreQuery>): FunctionScoreQuery => ({ type: 'functionScore', query: MATCH_ALL, functions: [], scoreMode: 'multiply', boostMode: 'multiply', maxBoost: FLOAT_MAX, minScore: null, boostOutside: false, ...over });

describe('function score evaluation', () => {
  it('combines as CombineFunction, capping the factor at max_boost', () => {
    expect(combine('multiply', 0.5, 3, FLOAT_MAX)).toBe(1.5);
    expect(combine('multiply', 0.5, 3, 2)).toBe(1);
    expect(combine('replace', 0.5, 0.1, FLOAT_MAX)).toBe(f(0.1));
    expect(combine('sum', 0.5, 3, FLOAT_MAX)).toBe(3.5);
    expect(combine('avg', 0.5, 3, FLOAT_MAX)).toBe(1.75);
    expect(combine('min', 0.5, 3, FLOAT_MAX)).toBe(0.5);
    expect(combine('max', 0.5, 3, FLOAT_MAX)).toBe(3);
  });

  it('computes factors over the documents each filter holds', () => {
    const index = setup();
    const sub = Matches.list(Int32Array.of(0, 1, 2), 3, Float32Array.of(1, 2, 4));
    const onlyB = Matches.list(Int32Array.of(1), 1, null);
    const query = node({ functions: [constant(3), constant(5, 5)], scoreMode: 'avg' });
    const out = functionScores(query, index, sub, [onlyB, null], 1, true);
    // a: only the second (5 / 5 = 1); b: both (3 + 5) / (1 + 5)
    expect(Array.from(out.scores as Float32Array)).toEqual([1, f(2 * (8 / 6)), 4]);
    const min = functionScores(node({ ...query, minScore: 2 }), index, sub, [onlyB, null], 1, true);
    expect(Array.from((min.docs as Int32Array).slice(0, min.size))).toEqual([1, 2]);
  });

  it('boostByQuery multiplies score, factor and outer boost in double', () => {
    const index = setup();
    const sub = Matches.list(Int32Array.of(0, 1), 2, Float32Array.of(f(0.7), f(0.9)));
    const query = node({ functions: [{ ...constant(f(0.3)), filter: MATCH_ALL }], scoreMode: 'first', boostOutside: true });
    const out = functionScores(query, index, sub, [Matches.list(Int32Array.of(1), 1, null)], f(2.5), true);
    expect(Array.from(out.scores as Float32Array)).toEqual([f(f(0.7) * f(2.5)), f(f(0.9) * f(0.3) * f(2.5))]);
  });

  it('refuses negative and NaN scores', () => {
    const index = setup();
    const sub = Matches.list(Int32Array.of(0), 1, Float32Array.of(1));
    expect(() => functionScores(node({ functions: [constant(-1)] }), index, sub, [null], 1, true)).toThrow('function score query returned an invalid score: -1 for document "a"');
    expect(() => functionScores(node({ functions: [constant(NaN)] }), index, sub, [null], 1, true)).toThrow('invalid score: NaN');
  });
});
