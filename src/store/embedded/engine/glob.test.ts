import { isSimpleMatchPattern, simpleMatch } from './glob';

describe('simpleMatch', () => {
  it('matches * across dots', () => {
    expect(simpleMatch('name*', 'name.keyword')).toBe(true);
    expect(simpleMatch('*', 'anything.at.all')).toBe(true);
    expect(simpleMatch('a*c', 'abc')).toBe(true);
    expect(simpleMatch('a*c', 'ab')).toBe(false);
    expect(simpleMatch('*.id', 'modifier.id')).toBe(true);
    expect(simpleMatch('a*b*c', 'abbbc')).toBe(true);
    expect(simpleMatch('a*b*c', 'acb')).toBe(false);
    expect(simpleMatch('aa*aa', 'aaa')).toBe(false);
  });

  it('compares literally without *', () => {
    expect(simpleMatch('name', 'name')).toBe(true);
    expect(simpleMatch('name', 'names')).toBe(false);
    expect(isSimpleMatchPattern('name')).toBe(false);
    expect(isSimpleMatchPattern('na*')).toBe(true);
  });
});
