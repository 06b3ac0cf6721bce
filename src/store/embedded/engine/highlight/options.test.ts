import { InvalidQueryError } from '../../../port';
import { DEFAULT_LIMITS } from '../limits';
import { STYLED_PRE_TAGS, parseHighlight } from './options';

const parse = (json: unknown) => parseHighlight(json, DEFAULT_LIMITS);
const options = (json: unknown, i = 0) => parse(json).fields[i].options;

describe('highlight options', () => {
  it("has Elasticsearch's defaults", () => {
    expect(options({ fields: { name: {} } })).toEqual({
      preTag: '<em>',
      postTag: '</em>',
      fragmentSize: 100,
      numberOfFragments: 5,
      noMatchSize: 0,
      requireFieldMatch: true,
      scoreOrdered: false,
      encoder: 'default',
      boundaryScanner: 'sentence',
      maxAnalyzedOffset: null,
      highlightQuery: null,
    });
  });

  it('takes fields as an object or an array of one-field objects, names with wildcards', () => {
    expect(parse({ fields: { name: {}, 'a*': {} } }).fields.map((f) => f.pattern)).toEqual(['name', 'a*']);
    expect(parse({ fields: [{ b: {} }, { a: {} }] }).fields.map((f) => f.pattern)).toEqual(['b', 'a']);
    expect(parse({}).fields).toEqual([]);
  });

  it("applies a field's options over the top-level ones", () => {
    const json = { pre_tags: ['['], post_tags: [']'], fragment_size: 50, order: 'score', fields: { a: {}, b: { fragment_size: 20, pre_tags: '<', post_tags: '>', order: 'none' } } };
    expect([options(json, 0).preTag, options(json, 0).fragmentSize, options(json, 0).scoreOrdered]).toEqual(['[', 50, true]);
    expect([options(json, 1).preTag, options(json, 1).postTag, options(json, 1).fragmentSize, options(json, 1).scoreOrdered]).toEqual(['<', '>', 20, false]);
  });

  it('reads every option, numbers and booleans also as strings', () => {
    const o = options({
      fields: {
        a: { number_of_fragments: '0', no_match_size: 30, require_field_match: 'false', encoder: 'html', boundary_scanner: 'WORD', max_analyzed_offset: -1, type: 'unified', fragmenter: 'span', boundary_chars: '.,', boundary_max_scan: 10, boundary_scanner_locale: 'en-US', phrase_limit: 5, fragment_offset: 1, highlight_filter: true, force_source: false, options: {} },
      },
    });
    expect([o.numberOfFragments, o.noMatchSize, o.requireFieldMatch, o.encoder, o.boundaryScanner, o.maxAnalyzedOffset]).toEqual([0, 30, false, 'html', 'word', -1]);
  });

  it('takes tags_schema styled and the first of several tags', () => {
    expect(options({ tags_schema: 'styled', fields: { a: {} } }).preTag).toBe(STYLED_PRE_TAGS[0]);
    expect(STYLED_PRE_TAGS[9]).toBe('<em class="hlt10">');
    expect(options({ fields: { a: { pre_tags: ['<x>', '<y>'], post_tags: ['</x>', '</y>'] } } }).postTag).toBe('</x>');
  });

  it('parses highlight_query as a query', () => {
    expect(options({ highlight_query: { match: { name: 'x' } }, fields: { a: {} } }).highlightQuery).not.toBeNull();
    expect(() => parse({ highlight_query: { nope: {} } })).toThrow('unsupported query clause "nope" at highlight.highlight_query');
  });

  it.each([
    ['a string', 'x', '[highlight] must be an object'],
    ['unknown keys', { foo: 1 }, '[highlight] unknown field [foo]'],
    ['unknown field options', { fields: { a: { size: 1 } } }, '[highlight_field] unknown field [size]'],
    ['fields of another shape', { fields: 'a' }, '"fields" must be an object or an array'],
    ['field arrays of several names', { fields: [{ a: {}, b: {} }] }, 'exactly one field name'],
    ['options that are not an object', { fields: { a: 1 } }, 'must be an object'],
    ['pre_tags without post_tags', { pre_tags: ['<b>'] }, 'pre_tags are set but post_tags are not set'],
    ['empty tags', { pre_tags: [], post_tags: [] }, 'pre_tags or post_tags must not be empty'],
    ['an unknown tags_schema', { tags_schema: 'bold' }, 'Unknown tag schema [bold]'],
    ['a number that is not one', { fragment_size: 'big' }, '"fragment_size" must be an integer'],
    ['negative number_of_fragments', { number_of_fragments: -1 }, '"number_of_fragments" must be 0'],
    ['max_analyzed_offset 0', { max_analyzed_offset: 0 }, '[max_analyzed_offset] must be a positive integer, or -1'],
    ['the plain highlighter', { type: 'plain' }, 'highlighter type [plain] is not supported'],
    ['the fvh highlighter', { fields: { a: { type: 'fvh' } } }, 'highlighter type [fvh] is not supported'],
    ['an unknown highlighter', { type: 'magic' }, 'unknown highlighter type [magic]'],
    ['boundary_scanner chars', { boundary_scanner: 'chars' }, 'boundary_scanner [chars] is not supported by the unified highlighter'],
    ['an unknown boundary_scanner', { boundary_scanner: 'line' }, '"boundary_scanner" must be one of'],
    ['matched_fields', { fields: { a: { matched_fields: ['b'] } } }, '"matched_fields" is not supported'],
    ['a boolean that is not one', { require_field_match: 'yes' }, '"require_field_match" must be a boolean'],
    ['an empty field name', { fields: { '': {} } }, 'a field name must not be empty'],
  ])('refuses %s', (_name, json, message) => {
    expect(() => parse(json)).toThrow(InvalidQueryError);
    expect(() => parse(json)).toThrow(message);
  });
});
