import { parseDuration } from './duration';

describe('parseDuration', () => {
  it.each([
    ['1h', 3_600_000],
    ['2h', 7_200_000],
    ['90s', 90_000],
    ['1 day', 86_400_000],
    ['3600000', 3_600_000],
    [3_600_000, 3_600_000],
    ['-1', -1],
    [-1, -1],
    ['0', 0],
  ])('%p is %p ms', (input, expected) => {
    expect(parseDuration(input)).toBe(expected);
  });

  it.each(['soon', '', '  ', 'h1', '1.5.2h', NaN, 1.5, null, {}, [], true])('%p is not a duration', (input) => {
    expect(parseDuration(input)).toBeUndefined();
  });
});
