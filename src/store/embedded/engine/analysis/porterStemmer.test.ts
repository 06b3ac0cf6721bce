import { porterStem } from './porterStemmer';

describe('porterStem (Lucene PorterStemmer)', () => {
  it.each([
    ['caresses', 'caress'],
    ['ponies', 'poni'],
    ['ties', 'ti'],
    ['cats', 'cat'],
    ['feed', 'feed'],
    ['agreed', 'agre'],
    ['disabled', 'disabl'],
    ['matting', 'mat'],
    ['mating', 'mate'],
    ['meeting', 'meet'],
    ['milling', 'mill'],
    ['happy', 'happi'],
    ['sky', 'sky'],
    ['relational', 'relat'],
    ['generalization', 'gener'],
    ['hopeful', 'hope'],
    ['goodness', 'good'],
    ['running', 'run'],
    ['adjustable', 'adjust'],
    ['ion', 'ion'],
    ['is', 'is'],
  ])('%s -> %s', (word, stem) => {
    expect(porterStem(word)).toBe(stem);
  });

  it('treats other chars as consonants and leaves words under three chars', () => {
    expect(porterStem('RUNNING')).toBe('RUNNING');
    expect(porterStem('3ds')).toBe('3d');
    expect(porterStem('as')).toBe('as');
    expect(porterStem('')).toBe('');
  });
});
