import { QueryLimitError } from '../../../port';
import { termQuery } from '../lucene/query';
import { FieldContext, FieldSpec, highlightField } from './fieldHighlighter';
import { DEFAULT_FIELD_OPTIONS, FieldOptions } from './options';
import { Analysis, FieldText } from './tokens';
import { weightMatches } from './weightMatches';

const DEFAULTS = DEFAULT_FIELD_OPTIONS;

/** Highlights `body` for term queries on it. */
function highlight(values: string[], terms: string[], options: Partial<FieldOptions> = {}, analysis: Analysis = 'standard', limit = 1_000_000): string[] | null {
  const spec: FieldSpec = { name: 'body', analysis, options: { ...DEFAULTS, ...options } };
  const matchesIn =
    terms.length === 0
      ? null
      : (text: FieldText) =>
          terms.flatMap((t) => weightMatches(termQuery('body', t), termQuery('body', t), 'body', text, new Map(), { matches: () => false, expand: () => null }) ?? []).sort((a, b) => a.start - b.start);
  const context: FieldContext = { id: 'doc-1', indexMaxAnalyzedOffset: limit, matchesIn };
  return highlightField(values, spec, context);
}

describe('one field of one document highlighted', () => {
  const text = 'One two. Three four. Five six.';

  it('gives the passages around the matches, trimmed, within fragment_size (BoundedBreakIteratorScanner)', () => {
    expect(highlight([text], ['four'], { fragmentSize: 20 })).toEqual(['Three <em>four</em>.']);
    expect(highlight([text], ['four'], { fragmentSize: 30 })).toEqual(['Three <em>four</em>. Five six.']);
    // fragment_size 0: whole sentences
    expect(highlight([text], ['four', 'six'], { fragmentSize: 0 })).toEqual(['Three <em>four</em>.', 'Five <em>six</em>.']);
  });

  it('cuts a long sentence at words around the match', () => {
    expect(highlight(['alpha beta gamma delta epsilon zeta eta theta iota kappa'], ['theta'], { fragmentSize: 20 })).toEqual(['delta epsilon zeta eta <em>theta</em>']);
  });

  it('uses word boundaries for boundary_scanner word (fragment_size has no effect)', () => {
    expect(highlight([text], ['four'], { boundaryScanner: 'word', fragmentSize: 1000 })).toEqual(['<em>four</em>']);
  });

  it('gives every matching value whole for number_of_fragments 0, untrimmed', () => {
    expect(highlight([' a fox ', 'no', 'fox two. Three.'], ['fox'], { numberOfFragments: 0 })).toEqual([' a <em>fox</em> ', '<em>fox</em> two. Three.']);
  });

  it('keeps at most number_of_fragments, the best ones, in text order or by score', () => {
    const values = ['fox.', 'fox fox fox.', 'fox fox.'];
    expect(highlight(values, ['fox'], { numberOfFragments: 2 })).toEqual(['<em>fox</em> <em>fox</em> <em>fox</em>.', '<em>fox</em> <em>fox</em>.']);
    expect(highlight(values, ['fox'], { numberOfFragments: 3, scoreOrdered: true })).toEqual(['<em>fox</em> <em>fox</em> <em>fox</em>.', '<em>fox</em> <em>fox</em>.', '<em>fox</em>.']);
  });

  it('highlights keyword values whole, at most number_of_fragments of them', () => {
    expect(highlight(['Big Fox', 'Fox', 'Fox'], ['Fox'], { numberOfFragments: 1 }, 'keyword')).toEqual(['<em>Fox</em>']);
  });

  it('escapes the text with the html encoder', () => {
    expect(highlight(['<b>fox</b> & co'], ['fox'], { encoder: 'html' })).toEqual(['&lt;b&gt;<em>fox</em>&lt;&#x2F;b&gt; &amp; co']);
  });

  it('answers no_match_size characters of the first non-empty value when nothing matches, up to a word end', () => {
    expect(highlight(['Nothing here.'], ['fox'], { noMatchSize: 10 })).toEqual(['Nothing here']);
    expect(highlight(['', 'abc def ghi'], [], { noMatchSize: 5 })).toEqual(['abc def']);
    expect(highlight(['short'], [], { noMatchSize: 100 })).toEqual(['short']);
    expect(highlight(['Nothing here.'], ['fox'])).toBeNull();
  });

  it('drops blank fragments and answers nothing for no values', () => {
    expect(highlight([], ['fox'])).toBeNull();
    expect(highlight(['   '], [], { noMatchSize: 5 })).toBeNull();
  });

  it('refuses a field longer than index.highlight.max_analyzed_offset, unless the request cuts it', () => {
    const long = `fox ${'x'.repeat(40)} fox`;
    expect(() => highlight([long], ['fox'], {}, 'standard', 20)).toThrow(QueryLimitError);
    try {
      highlight([long], ['fox'], {}, 'standard', 20);
    } catch (err) {
      expect((err as QueryLimitError).props).toEqual({ length: 48, field: 'body', id: 'doc-1', limit: 20 });
    }
    // max_analyzed_offset: matches up to that offset only
    expect(highlight([long], ['fox'], { maxAnalyzedOffset: 10, fragmentSize: 0 }, 'standard', 20)).toEqual([`<em>fox</em> ${'x'.repeat(40)} fox`]);
    // -1: the index's limit
    expect(highlight([long], ['fox'], { maxAnalyzedOffset: -1, fragmentSize: 0 }, 'standard', 20)).toEqual([`<em>fox</em> ${'x'.repeat(40)} fox`]);
    // a request's limit above the index's does not lift it
    expect(() => highlight([long], ['fox'], { maxAnalyzedOffset: 100 }, 'standard', 20)).toThrow(QueryLimitError);
    // nothing the query could find in the field: nothing done, no refusal
    expect(highlight([long], [], {}, 'standard', 20)).toBeNull();
  });
});

describe('adversarial text stays linear (a search that took quadratic time would hold the process)', () => {
  it('highlights in a text of periods, of one long sentence, of one repeated word', () => {
    const periods = `fox${'.'.repeat(200_000)} fox`;
    expect(highlight([periods], ['fox'], { numberOfFragments: 2 })).toHaveLength(2);
    const oneSentence = 'fox '.repeat(50_000);
    expect(highlight([oneSentence], ['fox'])).toHaveLength(5);
    const quotes = `fox ${'." ('.repeat(50_000)}fox`;
    expect(highlight([quotes], ['fox'], { fragmentSize: 0 })?.length).toBeGreaterThan(0);
    // periods no sentence rule completes after: the iterator's safe positions were quadratic there
    const dotted = `${'a.'.repeat(50_000)} fox ${'a.'.repeat(50_000)} fox`;
    expect(highlight([dotted], ['fox'], { numberOfFragments: 2 })?.length).toBeGreaterThan(0);
    expect(highlight([dotted], ['fox'], { fragmentSize: 0 })?.length).toBeGreaterThan(0);
  });
});
