import { parseTimeValueMillis } from './timeValue';

describe('parseTimeValueMillis', () => {
  it.each([
    ['90m', 5_400_000],
    ['2d', 172_800_000],
    ['-6h', -21_600_000],
    ['+1s', 1000],
    ['500ms', 500],
    ['1500micros', 1],
  ])('%s is %d ms', (text, ms) => expect(parseTimeValueMillis(text)).toBe(ms));

  it.each(['', '1M', '1y', 'h', '1 w', 'abc'])('refuses %p', (text) => expect(parseTimeValueMillis(text)).toBeNull());
});
