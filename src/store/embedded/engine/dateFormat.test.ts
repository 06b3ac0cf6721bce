import { compileDateFormat, isReadableDateFormat } from './dateFormat';

const utc = (iso: string) => Date.parse(iso);

describe('compileDateFormat', () => {
  it('reads custom patterns in UTC, whole values only', () => {
    const dmy = compileDateFormat('dd/MM/yyyy');
    expect(dmy('25/11/2026')).toBe(utc('2026-11-25T00:00:00Z'));
    expect(dmy('2026-11-25')).toBeNull();
    expect(dmy('31/02/2026')).toBeNull();
    expect(dmy('25/11/2026 x')).toBeNull();
    expect(compileDateFormat("yyyy-MM-dd'T'HH:mm:ss.SSS")('2026-11-25T13:04:05.123')).toBe(utc('2026-11-25T13:04:05.123Z'));
    expect(compileDateFormat('d.M.yyyy HH:mm')('5.1.2026 07:30')).toBe(utc('2026-01-05T07:30:00Z'));
  });

  it('alternatives with ||, and the built-in names', () => {
    const either = compileDateFormat('dd/MM/yyyy||epoch_millis');
    expect(either('01/01/1970')).toBe(0);
    expect(either(86400000)).toBe(86400000);
    expect(either('86400000')).toBe(86400000);
    expect(compileDateFormat('epoch_second')(1)).toBe(1000);
    expect(compileDateFormat('strict_date_optional_time')('2026-11-25T10:00:00Z')).toBe(utc('2026-11-25T10:00:00Z'));
    expect(compileDateFormat('strict_date_optional_time')(5)).toBeNull();
  });

  it('a pattern the engine cannot read is said so', () => {
    expect(isReadableDateFormat('dd/MM/yyyy')).toBe(true);
    expect(isReadableDateFormat('EEE, dd MMM yyyy')).toBe(false);
    expect(isReadableDateFormat("yyyy-MM-dd'T")).toBe(false);
    expect(() => compileDateFormat('basic_date_time_no_millis')).toThrow();
  });
});
