import { phraseMatches, phraseTermPositions } from './phraseSpans';
import { fieldText } from './tokens';

const tokens = (text: string) => fieldText([text], 'standard');
const phrase = (words: string, slop = 0) => ({ terms: words.split(' ').map((w) => [w]), positions: words.split(' ').map((_, i) => i), slop });

describe('phrase matches (Weight.matches)', () => {
  it('spans each exact occurrence from its first to its last term, overlapping ones too', () => {
    const text = 'a b a b a b';
    expect(phraseMatches(tokens(text), phrase('a b a'))).toEqual([
      [0, 5],
      [4, 9],
    ]);
  });

  it('spans each sloppy match as SloppyPhraseMatcher finds it', () => {
    // "test with from zero"~2 in "test with slop different from zero": one match over the whole (elastic/elasticsearch#122596)
    const text = 'test with slop different from zero';
    expect(phraseMatches(tokens(text), phrase('test with from zero', 2))).toEqual([[0, 34]]);
    expect(phraseMatches(tokens(text), phrase('test with from zero', 1))).toEqual([]);
    // out of order within the slop
    expect(phraseMatches(tokens('zero from'), phrase('from zero', 2))).toEqual([[0, 9]]);
  });

  it('takes any of several terms at a position (MultiPhraseQuery)', () => {
    const q = { terms: [['new'], ['york', 'yorkshire']], positions: [0, 1], slop: 0 };
    expect(phraseMatches(tokens('new yorkshire and new york'), q)).toEqual([
      [0, 13],
      [18, 26],
    ]);
  });

  it('never matches across two values (100 positions apart)', () => {
    expect(phraseMatches(fieldText(['a', 'b'], 'standard'), phrase('a b', 50))).toEqual([]);
  });
});

describe('phrase term positions (PhraseHelper, SpanNearQuery)', () => {
  it('collects the terms of in-order matches for slop 0', () => {
    expect([...phraseTermPositions(tokens('a b c a c b'), phrase('a b'))]).toEqual([0, 1]);
  });

  it('collects the terms of unordered matches within the slop', () => {
    // "b a" is within slop 1 unordered: positions 0..1 and 4..5
    expect([...phraseTermPositions(tokens('b a x x a b'), phrase('a b', 1))].sort()).toEqual([0, 1, 4, 5]);
  });
});
