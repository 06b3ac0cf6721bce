import { MAX_CODE_POINT } from './codePoints';
import { RegexpFlag } from './regexpFlags';
import { parseRegexp, RegexpNode, RegexpSyntaxError } from './regexpParser';

const ch = (c: string): RegexpNode => ({ type: 'chars', ranges: [c.codePointAt(0)!, c.codePointAt(0)!] });
const set = (...ranges: number[]): RegexpNode => ({ type: 'chars', ranges });
const cat = (...items: RegexpNode[]): RegexpNode => ({ type: 'concat', items });
const ANY = set(0, MAX_CODE_POINT);
const code = (c: string): number => c.codePointAt(0)!;

/** The error parsing throws: its class, message and position. */
function syntaxError(pattern: string, flags: number = RegexpFlag.ALL): [string, string, number] {
  try {
    parseRegexp(pattern, { flags });
  } catch (error) {
    if (error instanceof RegexpSyntaxError) return [error.name, error.message, error.position];
    throw error;
  }
  throw new Error(`${pattern} parsed`);
}

describe('parseRegexp', () => {
  test('characters, concatenation and the empty pattern', () => {
    expect(parseRegexp('a')).toEqual(ch('a'));
    expect(parseRegexp('abc')).toEqual(cat(ch('a'), ch('b'), ch('c')));
    expect(parseRegexp('')).toEqual({ type: 'emptyString' });
    expect(parseRegexp('()')).toEqual({ type: 'emptyString' });
    expect(parseRegexp('a()b')).toEqual(cat(ch('a'), ch('b')));
    expect(parseRegexp('.()')).toEqual(cat(ANY, { type: 'emptyString' }));
  });

  test('union: single characters merge into one set, as Lucene minimizes them', () => {
    expect(parseRegexp('a|b')).toEqual(set(code('a'), code('b')));
    expect(parseRegexp('a|bc|d')).toEqual({ type: 'union', items: [set(code('a'), code('a'), code('d'), code('d')), cat(ch('b'), ch('c'))] });
    expect(parseRegexp('(ab|cd)|ef')).toEqual({ type: 'union', items: [cat(ch('a'), ch('b')), cat(ch('c'), ch('d')), cat(ch('e'), ch('f'))] });
  });

  test('repetitions', () => {
    expect(parseRegexp('a?')).toEqual({ type: 'optional', sub: ch('a') });
    expect(parseRegexp('a*')).toEqual({ type: 'star', sub: ch('a') });
    expect(parseRegexp('a+')).toEqual({ type: 'repeat', sub: ch('a'), min: 1, max: Infinity });
    expect(parseRegexp('a{3}')).toEqual({ type: 'repeat', sub: ch('a'), min: 3, max: 3 });
    expect(parseRegexp('a{3,}')).toEqual({ type: 'repeat', sub: ch('a'), min: 3, max: Infinity });
    expect(parseRegexp('a{2,5}')).toEqual({ type: 'repeat', sub: ch('a'), min: 2, max: 5 });
    expect(parseRegexp('a{007}')).toEqual({ type: 'repeat', sub: ch('a'), min: 7, max: 7 });
    expect(parseRegexp('a*?')).toEqual({ type: 'optional', sub: { type: 'star', sub: ch('a') } });
    expect(parseRegexp('ab*')).toEqual(cat(ch('a'), { type: 'star', sub: ch('b') }));
  });

  test('a quantifier or ) where a character is expected is that character (Lucene)', () => {
    expect(parseRegexp('*')).toEqual(ch('*'));
    expect(parseRegexp('**')).toEqual({ type: 'star', sub: ch('*') });
    expect(parseRegexp('{')).toEqual(ch('{'));
    expect(parseRegexp('a|)')).toEqual(set(code(')'), code(')'), code('a'), code('a')));
    expect(parseRegexp('(|a)')).toEqual(cat(ch('|'), ch('a')));
    expect(parseRegexp(']')).toEqual(ch(']'));
  });

  test('character classes', () => {
    expect(parseRegexp('[abc]')).toEqual(set(code('a'), code('c')));
    expect(parseRegexp('[a-z0-9_]')).toEqual(set(code('0'), code('9'), code('_'), code('_'), code('a'), code('z')));
    expect(parseRegexp('[^a]')).toEqual(set(0, code('a') - 1, code('a') + 1, MAX_CODE_POINT));
    expect(parseRegexp('[]]')).toEqual(ch(']'));
    expect(parseRegexp('[a\\]]')).toEqual(set(code(']'), code(']'), code('a'), code('a')));
    expect(parseRegexp('[\\-a]')).toEqual(set(code('-'), code('-'), code('a'), code('a')));
    expect(parseRegexp('[.]')).toEqual(ch('.'));
    expect(parseRegexp('[😀-😂]')).toEqual(set(0x1f600, 0x1f602));
  });

  test('predefined classes (Lucene 9): \\d \\D \\s \\S \\w \\W, inside classes too', () => {
    expect(parseRegexp('\\d')).toEqual(set(code('0'), code('9')));
    expect(parseRegexp('\\D')).toEqual(set(0, code('0') - 1, code('9') + 1, MAX_CODE_POINT));
    expect(parseRegexp('\\s')).toEqual(set(9, 10, 13, 13, 32, 32));
    expect(parseRegexp('\\S')).toEqual(set(0, 8, 11, 12, 14, 31, 33, MAX_CODE_POINT));
    expect(parseRegexp('\\w')).toEqual(set(code('0'), code('9'), code('A'), code('Z'), code('_'), code('_'), code('a'), code('z')));
    expect((parseRegexp('\\W') as { ranges: readonly number[] }).ranges.slice(0, 4)).toEqual([0, code('0') - 1, code('9') + 1, code('A') - 1]);
    expect(parseRegexp('[\\dx]')).toEqual(set(code('0'), code('9'), code('x'), code('x')));
  });

  test('escapes and quoted strings', () => {
    expect(parseRegexp('\\.')).toEqual(ch('.'));
    expect(parseRegexp('\\\\')).toEqual(ch('\\'));
    expect(parseRegexp('\\*a')).toEqual(cat(ch('*'), ch('a')));
    expect(parseRegexp('"a.b"')).toEqual(cat(ch('a'), ch('.'), ch('b')));
    expect(parseRegexp('""')).toEqual({ type: 'emptyString' });
    expect(parseRegexp('"\\"')).toEqual(ch('\\'));
    expect(parseRegexp('.')).toEqual(ANY);
  });

  test('surrogate pairs are one character, lone surrogates their own', () => {
    expect(parseRegexp('😀')).toEqual(set(0x1f600, 0x1f600));
    expect(parseRegexp('😀+')).toEqual({ type: 'repeat', sub: set(0x1f600, 0x1f600), min: 1, max: Infinity });
    expect(parseRegexp('\ud800')).toEqual(set(0xd800, 0xd800));
  });

  test('optional syntax with its flag; literal without', () => {
    const none = { flags: RegexpFlag.NONE };
    expect(parseRegexp('a&b')).toEqual({ type: 'intersection', items: [ch('a'), ch('b')] });
    expect(parseRegexp('ab&c&d')).toEqual({ type: 'intersection', items: [cat(ch('a'), ch('b')), ch('c'), ch('d')] });
    expect(parseRegexp('a&b', none)).toEqual(cat(ch('a'), ch('&'), ch('b')));
    expect(parseRegexp('~a*')).toEqual({ type: 'star', sub: { type: 'complement', sub: ch('a') } });
    expect(parseRegexp('~~a')).toEqual(ch('a')); // the same strings
    expect(parseRegexp('~~~a')).toEqual({ type: 'complement', sub: ch('a') });
    expect(parseRegexp('~a', none)).toEqual(cat(ch('~'), ch('a')));
    expect(parseRegexp('#')).toEqual({ type: 'emptyLanguage' });
    expect(parseRegexp('#', none)).toEqual(ch('#'));
    expect(parseRegexp('@')).toEqual({ type: 'anyString' });
    expect(parseRegexp('@', { flags: RegexpFlag.EMPTY })).toEqual(ch('@'));
    expect(parseRegexp('<1-10>')).toEqual({ type: 'interval', min: 1, max: 10, digits: 0 });
    expect(parseRegexp('<1-10>', none)).toEqual(cat(ch('<'), ch('1'), ch('-'), ch('1'), ch('0'), ch('>')));
  });

  test('intervals: swapped ends, fixed width when both ends have the same length (Java parseInt)', () => {
    expect(parseRegexp('<10-1>')).toEqual({ type: 'interval', min: 1, max: 10, digits: 0 });
    expect(parseRegexp('<01-10>')).toEqual({ type: 'interval', min: 1, max: 10, digits: 2 });
    expect(parseRegexp('<007-100>')).toEqual({ type: 'interval', min: 7, max: 100, digits: 3 });
    expect(parseRegexp('<+5-10>')).toEqual({ type: 'interval', min: 5, max: 10, digits: 2 });
    expect(parseRegexp('<１-５>')).toEqual({ type: 'interval', min: 1, max: 5, digits: 1 }); // fullwidth digits
    expect(parseRegexp('<0-2147483647>')).toEqual({ type: 'interval', min: 0, max: 2147483647, digits: 0 });
  });

  test('case-insensitive (ASCII_CASE_INSENSITIVE): single characters and strings, not ranges', () => {
    const ci = { caseInsensitive: true };
    expect(parseRegexp('a', ci)).toEqual(set(code('A'), code('A'), code('a'), code('a')));
    expect(parseRegexp('"aB1"', ci)).toEqual(cat(set(code('A'), code('A'), code('a'), code('a')), set(code('B'), code('B'), code('b'), code('b')), ch('1')));
    expect(parseRegexp('[a-c]', ci)).toEqual(set(code('a'), code('c')));
    expect(parseRegexp('[ab]', ci)).toEqual(set(code('A'), code('B'), code('a'), code('b')));
    expect(parseRegexp('[^a]', ci)).toEqual(set(0, code('A') - 1, code('A') + 1, code('a') - 1, code('a') + 1, MAX_CODE_POINT));
    expect(parseRegexp('é', ci)).toEqual(ch('é')); // beyond ASCII: as is
    expect(parseRegexp('\\w', ci)).toEqual(parseRegexp('\\w'));
  });

  test('case-insensitive: an empty string not merged into a neighbouring literal matches nothing (Lucene)', () => {
    const ci = { caseInsensitive: true };
    const EMPTY: RegexpNode = { type: 'emptyLanguage' };
    expect(parseRegexp('', ci)).toEqual(EMPTY);
    expect(parseRegexp('()', ci)).toEqual(EMPTY);
    expect(parseRegexp('""', ci)).toEqual(EMPTY);
    expect(parseRegexp('.()', ci)).toEqual(cat(ANY, EMPTY));
    expect(parseRegexp('[a-c]""', ci)).toEqual(cat(set(code('a'), code('c')), EMPTY));
    // merged with a character or string next to it (RegExp.makeConcatenation), it is just gone
    expect(parseRegexp('x()', ci)).toEqual(parseRegexp('x', ci));
    expect(parseRegexp('()x', ci)).toEqual(parseRegexp('x', ci));
    expect(parseRegexp('[x]()', ci)).toEqual(parseRegexp('x', ci));
    expect(parseRegexp('(.x)()', ci)).toEqual(cat(ANY, set(code('X'), code('X'), code('x'), code('x'))));
    expect(parseRegexp('()(x.)', ci)).toEqual(cat(set(code('X'), code('X'), code('x'), code('x')), ANY));
  });

  test.each<[string, string, number, number?]>([
    ['(a', "expected ')' at position 2", 2],
    ['(ab|c', "expected ')' at position 5", 5],
    ['a)', 'end-of-string expected at position 1', 1],
    ['(', 'unexpected end-of-string', 1],
    ['a|', 'unexpected end-of-string', 2],
    ['\\', 'unexpected end-of-string', 1],
    ['[', 'unexpected end-of-string', 1],
    ['[]', "expected ']' at position 2", 2],
    ['[a', "expected ']' at position 2", 2],
    ['[^]', "expected ']' at position 3", 3],
    ['[z-a]', 'invalid range: from (122) cannot be > to (97)', 4],
    ['[a-]', 'invalid range: from (97) cannot be > to (93)', 4],
    ['a{', 'integer expected at position 2', 2],
    ['a{,3}', 'integer expected at position 2', 2],
    ['a{1', "expected '}' at position 3", 3],
    ['a{1,2', "expected '}' at position 5", 5],
    ['a{99999999999}', 'For input string: "99999999999"', 2],
    ['"abc', 'expected \'"\' at position 4', 4],
    ['<1-2', "expected '>' at position 4", 4],
    ['<1-2-3>', 'interval syntax error at position 6', 6],
    ['<-3>', 'interval syntax error at position 3', 3],
    ['<3->', 'interval syntax error at position 3', 3],
    ['<a-b>', 'interval syntax error at position 4', 4],
    ['<1-99999999999>', 'interval syntax error at position 14', 14],
    ['<ab>', 'interval syntax error at position 3', 3, RegexpFlag.INTERVAL],
    ['<1-2>', 'illegal identifier at position 4', 4, RegexpFlag.AUTOMATON],
    ['\\a', 'invalid character class \\97', 1],
    ['x[\\Q]', 'invalid character class \\81', 3],
    ['~', 'unexpected end-of-string', 1],
    // a named automaton: none exists, and Lucene says so once the whole pattern has parsed
    ['a<foo>', "'foo' not found", 1],
    ['(<foo>){0}|<bar>', "'foo' not found", 1],
    ['<>', "'' not found", 0],
    ['<foo>)', 'end-of-string expected at position 5', 5],
  ])('%s: %s', (pattern, message, position, ...flags) => {
    // (a rest parameter: Jest would take a fourth declared parameter for a `done` callback)
    expect(syntaxError(pattern, flags[0])).toEqual(['RegexpSyntaxError', message, position]);
  });

  test('RegexpSyntaxError is an Error', () => {
    expect(() => parseRegexp('(')).toThrow(Error);
    expect(() => parseRegexp('(')).toThrow(RegexpSyntaxError);
  });
});
