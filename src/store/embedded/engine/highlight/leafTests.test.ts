import { compilePrefix } from '../automaton';
import { UNLIMITED, runToEnd } from '../budget/budget';
import { booleanQuery, termQuery } from '../lucene/query';
import { termRange, termsAccepted, termsIn } from '../query/leaves';
import { LeafQuery } from '../lucene/query';
import { leafLabel, leafTests } from './leafTests';

describe('leaf term tests', () => {
  it('compiles the test of every leaf with terms, prohibited ones included', () => {
    const prefix = termsAccepted('f', 'prefix:["ca",false]', compilePrefix('ca'));
    const set = termsIn('f', ['x', 'y']);
    const range = termRange('f', 'b', true, 'd', false);
    const query = booleanQuery([
      { occur: 'must', query: prefix },
      { occur: 'must_not', query: set },
      { occur: 'should', query: range },
      { occur: 'should', query: termQuery('f', 'z') },
    ]);
    const tests = runToEnd(leafTests(query, UNLIMITED));
    expect(tests.size).toBe(3);
    const [p, s, r] = [prefix, set, range].map((leaf) => tests.get(leaf as LeafQuery)!);
    expect([p('cat'), p('dog'), s('y'), s('z'), r('b'), r('cz'), r('d')]).toEqual([true, false, true, false, true, true, false]);
  });

  it("labels a pattern's matches as Lucene prints its query, so patterns that print alike count as one", () => {
    expect(leafLabel(termsAccepted('body', 'prefix:["sea",false]', compilePrefix('sea')) as LeafQuery)).toBe('body:sea*');
    expect(leafLabel(termsAccepted('body', 'wildcard:["sea*",false]', compilePrefix('sea')) as LeafQuery)).toBe('body:sea*');
    expect(leafLabel(termRange('body', 'b', false, null, true) as LeafQuery)).toBe('body:{b TO *]');
    expect(leafLabel(termsIn('body', ['only']) as LeafQuery)).toBe('only');
    expect(leafLabel(termsIn('body', ['a', 'b']) as LeafQuery)).toBe('terms:["body",["a","b"]]');
  });
});
