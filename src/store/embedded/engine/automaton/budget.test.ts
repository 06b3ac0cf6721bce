import { DEFAULT_DETERMINIZE_WORK_LIMIT, TooComplexError, WorkBudget } from './budget';

describe('WorkBudget', () => {
  test("TooComplexError carries the pattern, the limit and Lucene's message", () => {
    const error = new TooComplexError('(a|b)*', 10000);
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('TooComplexError');
    expect(error.message).toBe('Determinizing (a|b)* would require more than 10000 effort.');
    expect([error.pattern, error.limit]).toEqual(['(a|b)*', 10000]);
    expect(DEFAULT_DETERMINIZE_WORK_LIMIT).toBe(10000);
  });

  test("determinization effort: Lucene's workLimit * 10, failing when reached", () => {
    const budget = new WorkBudget('p', 10);
    expect(budget.effortLimit).toBe(100);
    budget.chargeDeterminize(99);
    expect(() => budget.chargeDeterminize(1)).toThrow(new TooComplexError('p', 10));
  });

  test('NFA construction: workLimit * 10 states', () => {
    const budget = new WorkBudget('p', 10);
    budget.chargeStates(100);
    expect(() => budget.chargeStates(1)).toThrow(new TooComplexError('p', 10));
  });

  test('ranges handled while determinizing: workLimit * 200', () => {
    const budget = new WorkBudget('p', 10);
    budget.chargeWork(2000);
    expect(() => budget.chargeWork(1)).toThrow(new TooComplexError('p', 10));
  });

  test("repetitions: Lucene's check reports its estimate", () => {
    const budget = new WorkBudget('a{20000}', 10000);
    budget.checkRepeat(1, 10000);
    budget.checkRepeat(0, 2 ** 31);
    expect(() => budget.checkRepeat(1, 20000)).toThrow(new TooComplexError('a{20000}', 20000));
  });

  test('an infinite limit never fails', () => {
    const budget = new WorkBudget('p', Infinity);
    budget.chargeDeterminize(1e9);
    budget.chargeStates(1e9);
    budget.checkRepeat(1e9, 1e9);
  });
});
