import fc from 'fast-check';
import { TooComplexError, WorkBudget } from './budget';
import { MAX_CODE_POINT } from './codePoints';
import { complement, determinize, Dfa, EMPTY_DFA, intersection, removeDeadStates, UNIVERSAL_DFA } from './dfa';
import { Nfa } from './nfa';

/** Runs a DFA over code points (linear search: independent of RunAutomaton). */
function accepts(dfa: Dfa, text: string): boolean {
  if (dfa.accept.length === 0) return false;
  let state = 0;
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    const ts = dfa.transitions[state];
    let next = -1;
    for (let j = 0; j < ts.length; j += 3) if (c >= ts[j] && c <= ts[j + 1]) next = ts[j + 2];
    if (next < 0) return false;
    state = next;
  }
  return dfa.accept[state];
}

const budget = (): WorkBudget => new WorkBudget('test', 10000);

/** An NFA for (a|ab)c* with overlapping and epsilon paths. */
function sampleNfa(): { nfa: Nfa; start: number; final: number } {
  const nfa = new Nfa(budget());
  const [start, x, y, z, loop, final] = [0, 1, 2, 3, 4, 5].map(() => nfa.addState());
  nfa.addTransition(start, 0x61, 0x61, x); // a
  nfa.addTransition(start, 0x61, 0x61, y); // a (then b)
  nfa.addTransition(y, 0x62, 0x62, z);
  nfa.addEpsilon(x, loop);
  nfa.addEpsilon(z, loop);
  nfa.addTransition(loop, 0x63, 0x63, loop); // c*
  nfa.addEpsilon(loop, final);
  return { nfa, start, final };
}

describe('dfa', () => {
  test('determinize: the same language, deterministic ranges', () => {
    const { nfa, start, final } = sampleNfa();
    const dfa = determinize(nfa, start, final, budget());
    for (const text of ['a', 'ab', 'acc', 'abccc']) expect([text, accepts(dfa, text)]).toEqual([text, true]);
    for (const text of ['', 'b', 'abb', 'ca', 'ac b']) expect([text, accepts(dfa, text)]).toEqual([text, false]);
    for (const ts of dfa.transitions) for (let j = 3; j < ts.length; j += 3) expect(ts[j]).toBeGreaterThan(ts[j - 2]);
  });

  test('determinize splits overlapping ranges at their boundaries, not per code point', () => {
    const nfa = new Nfa(budget());
    const [start, p, q, final] = [0, 1, 2, 3].map(() => nfa.addState());
    nfa.addTransition(start, 0, MAX_CODE_POINT, p);
    nfa.addTransition(start, 0x100, 0x200, q);
    nfa.addEpsilon(p, final);
    nfa.addTransition(q, 0x78, 0x78, final);
    const dfa = determinize(nfa, start, final, budget());
    expect(dfa.transitions[0]).toEqual([0, 0xff, 1, 0x100, 0x200, 2, 0x201, MAX_CODE_POINT, 1]);
  });

  test("determinize charges Lucene's effort: the NFA states of each DFA state", () => {
    const { nfa, start, final } = sampleNfa();
    const counting = new WorkBudget('p', 10000);
    const spent: number[] = [];
    const charge = counting.chargeDeterminize.bind(counting);
    counting.chargeDeterminize = (n: number) => {
      spent.push(n);
      charge(n);
    };
    determinize(nfa, start, final, counting);
    // {start}, then after a: {y, loop} (x has no transitions of its own), then {loop} (after ab, ac, ...)
    expect(spent).toEqual([1, 2, 1]);
    const tiny = sampleNfa();
    expect(() => determinize(tiny.nfa, tiny.start, tiny.final, new WorkBudget('p', 0.4))).toThrow(TooComplexError);
  });

  test('a dead start is the empty language; dead states are removed', () => {
    const nfa = new Nfa(budget());
    const start = nfa.addState();
    const dead = nfa.addState();
    const final = nfa.addState();
    nfa.addTransition(start, 0x61, 0x61, dead);
    expect(determinize(nfa, start, final, budget())).toBe(EMPTY_DFA);
    const dfa: Dfa = { accept: [false, true, false], transitions: [[0x61, 0x61, 1, 0x62, 0x62, 2], [], [0x61, 0x61, 2]] };
    expect(removeDeadStates(dfa)).toEqual({ accept: [false, true], transitions: [[0x61, 0x61, 1], []] });
  });

  test('complement over the whole code point range', () => {
    const { nfa, start, final } = sampleNfa();
    const dfa = determinize(nfa, start, final, budget());
    const not = complement(dfa);
    fc.assert(fc.property(fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'é', '😀') }), (text) => accepts(not, text) === !accepts(dfa, text)));
    expect(complement(EMPTY_DFA)).toBe(UNIVERSAL_DFA);
    expect(complement(UNIVERSAL_DFA)).toEqual(EMPTY_DFA);
  });

  test('intersection: the product, charged to the budget', () => {
    const { nfa, start, final } = sampleNfa();
    const dfa = determinize(nfa, start, final, budget());
    const evenLength: Dfa = { accept: [true, false], transitions: [[0, MAX_CODE_POINT, 1], [0, MAX_CODE_POINT, 0]] };
    const both = intersection(dfa, evenLength, budget());
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', 'b', 'c') }), (text) => accepts(both, text) === (accepts(dfa, text) && [...text].length % 2 === 0)),
    );
    expect(intersection(dfa, EMPTY_DFA, budget())).toBe(EMPTY_DFA);
    expect(intersection(dfa, complement(dfa), budget())).toEqual(EMPTY_DFA);
    expect(() => intersection(dfa, evenLength, new WorkBudget('p', 0.5))).toThrow(TooComplexError);
  });
});
