import { TooComplexError, WorkBudget } from './budget';
import { Nfa } from './nfa';

describe('Nfa', () => {
  test('states, range transitions and epsilon moves', () => {
    const nfa = new Nfa(new WorkBudget('p', 10000));
    const a = nfa.addState();
    const b = nfa.addState();
    nfa.addTransition(a, 0x61, 0x62, b);
    nfa.addRanges(b, [0x30, 0x39, 0x41, 0x41], a);
    nfa.addEpsilon(a, b);
    nfa.addEpsilon(b, b); // a self epsilon is dropped
    expect(nfa.size).toBe(2);
    expect(nfa.transitions).toEqual([[0x61, 0x62, b], [0x30, 0x39, a, 0x41, 0x41, a]]);
    expect(nfa.epsilons).toEqual([[b], []]);
  });

  test('every state is charged to the budget', () => {
    const nfa = new Nfa(new WorkBudget('p', 1));
    for (let i = 0; i < 10; i++) nfa.addState();
    expect(() => nfa.addState()).toThrow(TooComplexError);
  });
});
