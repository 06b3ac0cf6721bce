import { InvalidQueryError } from '../../../port';
import { parseTimeZone } from '../dates';
import { DEFAULT_DATE_FORMAT, DateFormats } from './dateFormat';

const JAN_1_2024 = Date.UTC(2024, 0, 1);

describe('DateFormats', () => {
  it('prints the date field default as Elasticsearch (Z at offset zero, +01:00 elsewhere)', () => {
    expect(DEFAULT_DATE_FORMAT.print(JAN_1_2024)).toBe('2024-01-01T00:00:00.000Z');
    expect(DEFAULT_DATE_FORMAT.print(JAN_1_2024, parseTimeZone('Europe/Paris', 't'))).toBe('2024-01-01T01:00:00.000+01:00');
    expect(DEFAULT_DATE_FORMAT.print(Date.UTC(2024, 6, 1), parseTimeZone('-05:30', 't'))).toBe('2024-06-30T18:30:00.000-05:30');
  });

  it('prints named formats and patterns', () => {
    expect(new DateFormats('yyyy-MM-dd', 't').print(JAN_1_2024)).toBe('2024-01-01');
    expect(new DateFormats('year_month', 't').print(JAN_1_2024)).toBe('2024-01');
    expect(new DateFormats('strict_date', 't').print(JAN_1_2024)).toBe('2024-01-01');
    expect(new DateFormats('MMM yyyy', 't').print(Date.UTC(2024, 2, 5))).toBe('Mar 2024');
    expect(new DateFormats("EEEE dd/MM/yy 'at' hh:mm a", 't').print(Date.UTC(2024, 2, 5, 15, 4))).toBe('Tuesday 05/03/24 at 03:04 PM');
    expect(new DateFormats('epoch_millis', 't').print(JAN_1_2024)).toBe('1704067200000');
    expect(new DateFormats('epoch_second', 't').print(JAN_1_2024)).toBe('1704067200');
    expect(new DateFormats('yyyy-DDD', 't').print(Date.UTC(2024, 1, 1))).toBe('2024-032');
  });

  it('parses with each of several formats, local fields in the zone', () => {
    const formats = new DateFormats('dd/MM/yyyy||epoch_millis', 't');
    expect(formats.parse('05/03/2024')).toBe(Date.UTC(2024, 2, 5));
    expect(formats.parse('1704067200000')).toBe(JAN_1_2024);
    expect(formats.parse('2024-03-05')).toBeNull();
    expect(formats.parse('05/03/2024', parseTimeZone('+02:00', 't'))).toBe(Date.UTC(2024, 2, 4, 22));
    expect(DEFAULT_DATE_FORMAT.parse('2024-01-01', parseTimeZone('+01:00', 't'))).toBe(JAN_1_2024 - 3_600_000);
    expect(DEFAULT_DATE_FORMAT.parse('2024-01-01T00:00:00Z', parseTimeZone('+01:00', 't'))).toBe(JAN_1_2024);
  });

  it('refuses letters it does not know and unterminated quotes', () => {
    expect(() => new DateFormats('yyyy-ww', 'aggs.x.format')).toThrow(InvalidQueryError);
    expect(() => new DateFormats("yyyy 'oops", 'aggs.x.format')).toThrow(/unterminated quote/);
    expect(() => new DateFormats('yyyy||', 'aggs.x.format')).toThrow(/empty date format/);
  });
});
