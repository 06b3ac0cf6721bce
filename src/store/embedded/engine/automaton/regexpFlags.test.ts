import { parseRegexpFlags, RegexpFlag, RegexpFlagError } from './regexpFlags';

describe('parseRegexpFlags (Elasticsearch RegexpFlag.resolveValue)', () => {
  test('absent or empty: ALL', () => {
    expect(parseRegexpFlags(undefined)).toBe(RegexpFlag.ALL);
    expect(parseRegexpFlags(null)).toBe(RegexpFlag.ALL);
    expect(parseRegexpFlags('')).toBe(RegexpFlag.ALL);
    expect(RegexpFlag.ALL).toBe(0xff);
  });

  test('names, case-insensitive, separated by |', () => {
    expect(parseRegexpFlags('NONE')).toBe(0);
    expect(parseRegexpFlags('INTERSECTION')).toBe(1);
    expect(parseRegexpFlags('intersection|Complement')).toBe(3);
    expect(parseRegexpFlags('INTERSECTION|COMPLEMENT|EMPTY|ANYSTRING|INTERVAL')).toBe(0x2f);
    expect(parseRegexpFlags('EMPTY||ANYSTRING|')).toBe(0x0c); // empty names are skipped
    expect(parseRegexpFlags('NONE|EMPTY')).toBe(RegexpFlag.EMPTY);
    expect(parseRegexpFlags('EMPTY|ALL')).toBe(RegexpFlag.ALL);
    expect(parseRegexpFlags('ALL|NOPE')).toBe(RegexpFlag.ALL); // ALL returns at once
  });

  test('an unknown name is an error naming it as given', () => {
    expect(() => parseRegexpFlags('EMPTY|nope')).toThrow(new RegexpFlagError('Unknown regexp flag [nope]'));
    expect(() => parseRegexpFlags(' EMPTY')).toThrow('Unknown regexp flag [ EMPTY]');
    expect(() => parseRegexpFlags('AUTOMATON')).toThrow('Unknown regexp flag [AUTOMATON]'); // not an Elasticsearch flag
    expect(() => parseRegexpFlags('toString')).toThrow('Unknown regexp flag [toString]');
    expect(() => parseRegexpFlags('x')).toThrow(RegexpFlagError);
  });
});
