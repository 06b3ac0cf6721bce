import { InvalidQueryError } from '../../port';
import { civilFromDays, daysFromCivil, isDateString, localToUtc, parseDateMath, parseDateValue, parseTimeZone } from './dates';

const ms = (iso: string) => Date.parse(iso);
const NOW = ms('2024-03-15T13:45:30.123Z');
const math = (text: string, roundUp = false, zone?: string) => parseDateMath(text, { now: NOW, roundUp, zone: zone === undefined ? undefined : parseTimeZone(zone, 'test'), where: 'test' });

describe('dates', () => {
  it('converts civil dates both ways', () => {
    expect(daysFromCivil(1970, 1, 1)).toBe(0);
    expect(daysFromCivil(2000, 3, 1)).toBe(11017);
    for (const days of [-800000, -1, 0, 59, 10957, 19797, 2932896]) {
      const { year, month, day } = civilFromDays(days);
      expect(daysFromCivil(year, month, day)).toBe(days);
    }
  });

  it('parses strict_date_optional_time, yyyy/MM/dd and epoch millis', () => {
    expect(parseDateValue('2024-01-05')).toBe(ms('2024-01-05T00:00:00Z'));
    expect(parseDateValue('2024-01')).toBe(ms('2024-01-01T00:00:00Z'));
    expect(parseDateValue('2024-01-05T10:20:30.123456Z')).toBe(ms('2024-01-05T10:20:30.123Z'));
    expect(parseDateValue('2024-01-05T10:20+02:00')).toBe(ms('2024-01-05T08:20:00Z'));
    expect(parseDateValue('2024/01/05 10:20:30')).toBe(ms('2024-01-05T10:20:30Z'));
    expect(new Date(parseDateValue('0099-01-01') as number).toISOString()).toBe('0099-01-01T00:00:00.000Z');
    expect(parseDateValue('1700000000000')).toBe(1700000000000);
    expect(parseDateValue('2024-02-30')).toBeNull();
    expect(parseDateValue('2024-13-01')).toBeNull();
    expect(parseDateValue('24-01-01')).toBeNull();
  });

  it('detects dates the way dynamic mapping does', () => {
    expect(isDateString('2024-01-05T10:00:00Z')).toBe(true);
    expect(isDateString('2015/09/02')).toBe(true);
    expect(isDateString('2024')).toBe(false); // parseable as a number: never a date
    expect(isDateString('20240105')).toBe(false);
    expect(isDateString('France')).toBe(false);
    expect(isDateString('2021-51')).toBe(false); // invalid month
  });

  it('evaluates now with date math and rounding', () => {
    expect(math('now')).toBe(NOW);
    expect(math('now-1d')).toBe(NOW - 86_400_000);
    expect(math('now/d')).toBe(ms('2024-03-15T00:00:00Z'));
    expect(math('now/d', true)).toBe(ms('2024-03-15T23:59:59.999Z'));
    expect(math('now-1d/d')).toBe(ms('2024-03-14T00:00:00Z'));
    expect(math('now+1M/M')).toBe(ms('2024-04-01T00:00:00Z'));
    expect(math('now/w')).toBe(ms('2024-03-11T00:00:00Z')); // a Monday
    expect(math('now/y', true)).toBe(ms('2024-12-31T23:59:59.999Z'));
    expect(math('now/h')).toBe(ms('2024-03-15T13:00:00Z'));
    expect(math('now+90m/m')).toBe(ms('2024-03-15T15:15:00Z'));
  });

  it('anchors math on a date with ||', () => {
    expect(math('2024-01-31||+1M')).toBe(ms('2024-02-29T00:00:00Z')); // clamped to the month's end
    expect(math('2014-11-18||/M', true)).toBe(ms('2014-11-30T23:59:59.999Z'));
    expect(math('2014-11-18||/M')).toBe(ms('2014-11-01T00:00:00Z'));
  });

  it('fills missing components when rounding up, as Elasticsearch documents', () => {
    expect(math('2024-01-05', true)).toBe(ms('2024-01-05T23:59:59.999Z'));
    expect(math('2024-01', true)).toBe(ms('2024-01-01T23:59:59.999Z'));
    expect(math('2024-01-05T10:00', true)).toBe(ms('2024-01-05T10:00:59.999Z'));
    expect(math('2024-01-05T10:00:00Z', true)).toBe(ms('2024-01-05T10:00:00.999Z'));
  });

  it('applies time zones to parsing and rounding', () => {
    expect(math('2024-01-05', false, '+01:00')).toBe(ms('2024-01-04T23:00:00Z'));
    expect(math('now/d', false, '-05:00')).toBe(ms('2024-03-15T05:00:00Z'));
    expect(math('2024-07-01', false, 'Europe/Paris')).toBe(ms('2024-06-30T22:00:00Z'));
    expect(math('2024-01-01', false, 'Europe/Paris')).toBe(ms('2023-12-31T23:00:00Z'));
    expect(localToUtc(0, parseTimeZone('UTC', 'x'))).toBe(0);
    expect(() => parseTimeZone('Mars/Olympus', 'x')).toThrow(InvalidQueryError);
  });

  it('rejects malformed math', () => {
    for (const bad of ['now-', 'now*1d', 'now-1x', 'now/2d', 'yesterday', '2024-01-05||+']) {
      expect(() => math(bad)).toThrow(InvalidQueryError);
    }
  });
});

describe('dates at the edges', () => {
  it('does not throw outside of the Date range', () => {
    expect(Number.isFinite(math('now+100000000y', false, 'Europe/Paris'))).toBe(true);
    expect(() => math('now+1000000000000000000y', false, 'Europe/Paris')).toThrow(InvalidQueryError);
  });
});
