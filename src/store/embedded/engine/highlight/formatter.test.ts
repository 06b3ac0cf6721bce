import { formatPassages, htmlEncode, javaTrim } from './formatter';
import { OffsetMatch, Passage } from './passages';

const m = (start: number, end: number): OffsetMatch => ({ start, end, term: 't', freq: 1 });
const p = (start: number, end: number, matches: OffsetMatch[], score = 1): Passage => ({ start, end, score, matches });
const options = { preTag: '<em>', postTag: '</em>', encoder: 'default' as const, numberOfFragments: 5 };

describe("Elasticsearch's CustomPassageFormatter", () => {
  it('wraps each match in the tags and trims the fragment as Java does', () => {
    const content = '  The quick brown fox.  ';
    expect(formatPassages([p(0, 24, [m(6, 11), m(12, 17)])], content, options)).toEqual([{ text: 'The <em>quick</em> <em>brown</em> fox.', score: 1 }]);
  });

  it('keeps the whole text untrimmed for number_of_fragments 0', () => {
    expect(formatPassages([p(0, 7, [m(2, 5)])], '  fox  ', { ...options, numberOfFragments: 0 })[0].text).toBe('  <em>fox</em>  ');
  });

  it('merges overlapping matches and cuts a match at the end of its passage', () => {
    const content = 'abcdefghij';
    expect(formatPassages([p(0, 10, [m(1, 4), m(2, 6), m(5, 7)])], content, options)[0].text).toBe('a<em>bcdefg</em>hij');
    expect(formatPassages([p(0, 5, [m(3, 8)])], content, options)[0].text).toBe('abc<em>de</em>');
  });

  it('drops a trailing value separator (U+0000) or paragraph separator (U+2029)', () => {
    expect(formatPassages([p(0, 4, [m(0, 3)])], 'fox\u0000next', options)[0].text).toBe('<em>fox</em>');
    expect(formatPassages([p(0, 4, [m(0, 3)])], 'fox\u2029next', { ...options, numberOfFragments: 0 })[0].text).toBe('<em>fox</em>');
  });

  it('escapes the text and not the tags with the html encoder (SimpleHTMLEncoder)', () => {
    const content = '<b>Tom & "Jerry"</b>';
    expect(formatPassages([p(0, content.length, [m(3, 6)])], content, { ...options, encoder: 'html' })[0].text).toBe('&lt;b&gt;<em>Tom</em> &amp; &quot;Jerry&quot;&lt;&#x2F;b&gt;');
    expect(htmlEncode(`'/`)).toBe('&#x27;&#x2F;');
    expect(formatPassages([p(0, 5, [m(0, 1)])], 'a & b', options)[0].text).toBe('<em>a</em> & b');
  });

  it('trims every character up to U+0020, as String.trim', () => {
    expect(javaTrim('\u0001\t x \u001f')).toBe('x');
    expect(javaTrim('\u00a0x\u00a0')).toBe('\u00a0x\u00a0');
  });
});
