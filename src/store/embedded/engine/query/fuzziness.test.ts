import { InvalidQueryError } from '../../../port';
import { AUTO, editsFor, readFuzziness } from './fuzziness';

const read = (value: unknown) => readFuzziness('match', value, 'query.match.name');
const reason = (value: unknown): string => {
  try {
    read(value);
  } catch (err) {
    expect(err).toBeInstanceOf(InvalidQueryError);
    return (err as Error).message;
  }
  throw new Error(`${JSON.stringify(value)} was accepted`);
};

describe('readFuzziness (Elasticsearch 8 Fuzziness.parse)', () => {
  it('reads AUTO in any case, with or without its bounds', () => {
    expect(read('AUTO')).toEqual(AUTO);
    expect(read('auto')).toEqual({ auto: true, low: 3, high: 6 });
    expect(read('AUTO:4,7')).toEqual({ auto: true, low: 4, high: 7 });
    expect(read('auto:0,0')).toEqual({ auto: true, low: 0, high: 0 });
    expect(read('AUTO:3,6,')).toEqual(AUTO); // Java's split drops a trailing empty part
  });

  it('reads edit distances as numbers and as strings, floats without a fraction too', () => {
    for (const value of [0, 1, 2, '0', '1', '2', '2.0', '1e0', '1F', ' 1 ', 1.0]) expect(read(value)).toEqual({ auto: false, edits: Number(String(value).replace('F', '')) });
    // a JSON number is truncated as Jackson's intValue does; a negative fraction truncates to 0
    expect(read(1.9)).toEqual({ auto: false, edits: 1 });
    expect(read(-0.5)).toEqual({ auto: false, edits: 0 });
    expect(read('-0.0')).toEqual({ auto: false, edits: 0 });
  });

  it("refuses everything else with Elasticsearch's reason", () => {
    expect(reason(3)).toContain('Valid edit distances are [0, 1, 2] but was [3]');
    expect(reason('3')).toContain('Valid edit distances are [0, 1, 2] but was [3]');
    expect(reason(-1)).toContain('but was [-1]');
    expect(reason('1.5')).toContain('fuzziness needs to be one of 0.0, 1.0 or 2.0 but was 1.5');
    expect(reason('0.2')).toContain('but was 0.2');
    expect(reason('1E40')).toContain('but was [2147483647]');
    expect(reason('')).toContain('fuzziness cannot be null or empty.');
    expect(reason('two')).toContain('fuzziness cannot be [two].');
    expect(reason('NaN')).toContain('fuzziness cannot be [NaN].'); // upper-cased to NAN, which Java does not read
    expect(reason('AUTO:5')).toContain('failed to find low and high distance values');
    expect(reason('AUTO:a,6')).toContain('failed to parse [AUTO:A,6] as a "auto:int,int"');
    expect(reason('AUTO: 3,6')).toContain('as a "auto:int,int"');
    expect(reason('AUTO:6,3')).toContain('fuzziness wrongly configured [AUTO:6,3]');
    expect(reason('AUTO:-1,3')).toContain('fuzziness wrongly configured');
    expect(reason(true)).toContain("Can't parse fuzziness on token: [VALUE_BOOLEAN]");
    expect(reason(null)).toContain('[VALUE_NULL]');
    expect(reason({})).toContain('[START_OBJECT]');
    expect(reason([1])).toContain('[START_ARRAY]');
    expect(reason(2 ** 31)).toContain('out of range of int');
    expect(reason('x')).toContain('(fuzziness at query.match.name)');
  });
});

describe('editsFor (Fuzziness.asDistance)', () => {
  it('AUTO: 0 edits below 3 code points, 1 below 6, else 2', () => {
    expect(['', 'ab', 'abc', 'abcde', 'abcdef', 'abcdefghij'].map((t) => editsFor(AUTO, t))).toEqual([0, 0, 1, 1, 2, 2]);
    expect(editsFor(AUTO, '😀😀')).toBe(0); // code points, not UTF-16 units
    expect(editsFor(AUTO, '😀😀😀')).toBe(1);
  });

  it('AUTO:low,high moves the bounds; a fixed distance ignores the length', () => {
    const custom = read('AUTO:1,2');
    expect(['', 'a', 'ab'].map((t) => editsFor(custom, t))).toEqual([0, 1, 2]);
    expect(editsFor(read(2), 'a')).toBe(2);
    expect(editsFor(read(0), 'abcdefgh')).toBe(0);
  });
});
