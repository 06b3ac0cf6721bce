import { parseTimeout } from './timeValue';

describe('a search timeout', () => {
  it('reads Elasticsearch time values', () => {
    expect(parseTimeout('500ms', 10_000)).toEqual({ ok: true, value: 500 });
    expect(parseTimeout('2s', 10_000)).toEqual({ ok: true, value: 2000 });
    expect(parseTimeout(' 1M ', 120_000)).toEqual({ ok: true, value: 60_000 });
    expect(parseTimeout('1500micros', 10_000)).toEqual({ ok: true, value: 1.5 });
  });

  it('takes -1 and absence for the default', () => {
    for (const value of [undefined, null, -1, '-1']) expect(parseTimeout(value, 10_000)).toEqual({ ok: true, value: undefined });
  });

  it('refuses what is not a positive time value within the gateway budget', () => {
    for (const value of ['soon', '1.5s', '10', 10, '0ms', '-5s', '11s', {}, true]) {
      const r = parseTimeout(value, 10_000);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error.id).toBe('api.assert.invalid_argument');
    }
    const over = parseTimeout('1h', 10_000);
    expect(!over.ok && over.error.message).toContain('SEARCH_TIMEOUT');
    const fractional = parseTimeout('1.5s', 10_000);
    expect(!fractional.ok && fractional.error.message).toContain('fractional');
  });
});
