import { formatWindowPolicy, parseWindowPolicy } from './policy';

describe('parseWindowPolicy', () => {
  it('reads <requests>/<window> with the window as an ms duration of whole seconds', () => {
    expect(parseWindowPolicy('600/1m')).toEqual({ limit: 600, windowSeconds: 60 });
    expect(parseWindowPolicy(' 20 / 30s ')).toEqual({ limit: 20, windowSeconds: 30 });
    expect(parseWindowPolicy('100000/1d')).toEqual({ limit: 100_000, windowSeconds: 86_400 });
    expect(parseWindowPolicy('5/2000')).toEqual({ limit: 5, windowSeconds: 2 });
    expect(parseWindowPolicy('600/m')).toEqual({ limit: 600, windowSeconds: 60 });
  });

  it('reads off as no limit', () => {
    expect(parseWindowPolicy('off')).toBeNull();
    expect(parseWindowPolicy('OFF')).toBeNull();
  });

  it.each([
    ['600', /600\/1m/],
    ['0/1m', /integer from 1/],
    ['-5/1m', /integer from 1/],
    ['1.5/1m', /integer from 1/],
    ['10/soon', /not a duration/],
    ['10/1500ms', /whole number of seconds/],
    ['10/2d', /from 1 s to 1 day/],
    ['10/0', /not a duration/],
  ])('refuses %s, saying what to write', (value, message) => {
    const parsed = parseWindowPolicy(value);
    expect(parsed).toEqual({ problem: expect.stringMatching(message) });
  });

  it('writes a policy back', () => {
    expect(formatWindowPolicy({ limit: 600, windowSeconds: 60 })).toBe('600/60s');
    expect(formatWindowPolicy(null)).toBe('off');
  });
});
