import { booleanQuery, termQuery } from '../lucene/query';
import { applyMinimumShouldMatch, calculateMinShouldMatch, readMinimumShouldMatch } from './minimumShouldMatch';

const f = Math.fround;

describe('minimum_should_match', () => {
  it('reads integers, negative integers and percentages as Elasticsearch does', () => {
    expect(calculateMinShouldMatch(3, '2')).toBe(2);
    expect(calculateMinShouldMatch(3, '5')).toBe(5); // not capped
    expect(calculateMinShouldMatch(3, '-1')).toBe(2);
    expect(calculateMinShouldMatch(3, '-5')).toBe(0);
    // percentages are computed in float: (count * percent) * 0.01f, truncated
    expect(calculateMinShouldMatch(4, '75%')).toBe(Math.trunc(f(f(300) * f(0.01))));
    expect(calculateMinShouldMatch(4, '75%')).toBe(3);
    expect(calculateMinShouldMatch(3, '66%')).toBe(1);
    expect(calculateMinShouldMatch(4, '-25%')).toBe(3);
    expect(calculateMinShouldMatch(7, ' 50% ')).toBe(3);
  });

  it('reads conditional specs', () => {
    expect(calculateMinShouldMatch(2, '3<90%')).toBe(2);
    expect(calculateMinShouldMatch(10, '3<90%')).toBe(9);
    expect(calculateMinShouldMatch(10, '2<-25% 9<-3')).toBe(7);
    expect(calculateMinShouldMatch(5, '2<-25% 9<-3')).toBe(4);
  });

  it('validates the parameter', () => {
    expect(readMinimumShouldMatch('x', 2, 'p')).toBe('2');
    expect(readMinimumShouldMatch('x', '3<90%', 'p')).toBe('3<90%');
    for (const bad of ['x', '2.5', '%', '3<', 2.5, {}, null]) expect(() => readMinimumShouldMatch('x', bad, 'p')).toThrow('minimum_should_match');
  });

  it('sets the minimum only when positive', () => {
    const q = booleanQuery([
      { occur: 'should', query: termQuery('f', 'a') },
      { occur: 'should', query: termQuery('f', 'b') },
    ]);
    expect(applyMinimumShouldMatch(q, '1').minimumShouldMatch).toBe(1);
    expect(applyMinimumShouldMatch(q, '-100%')).toBe(q);
    expect(applyMinimumShouldMatch(q, null)).toBe(q);
  });
});
