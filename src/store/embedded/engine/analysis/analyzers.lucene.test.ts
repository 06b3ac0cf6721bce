/**
 * Differential test against the real Lucene: every named analyzer's tokens (terms, offsets,
 * position increments, types) for thousands of seeded random texts (testing/generate.ts) and long
 * runs, run by analyzers.ts and by Lucene's analyzers (testing/AnalysisOracle.java: StandardAnalyzer
 * without stop words, SimpleAnalyzer, WhitespaceAnalyzer, KeywordAnalyzer, EnglishAnalyzer,
 * CJKAnalyzer). Needs java, javac and the Lucene 8 jars (Debian: `apt-get install -y
 * default-jdk-headless liblucene8-java`); skipped with a message otherwise.
 */
import { ANALYZER_NAMES, analyzerByName } from './analyzers';
import { analysisOracle } from './testing/analysisOracle';
import { longTexts, random, randomText } from './testing/generate';

const oracle = analysisOracle();
const available = 'run' in oracle;
if (!available) console.warn(`Skipping the analyzers' Lucene differential test: ${oracle.missing}. Install java, javac and Lucene (Debian: apt-get install -y default-jdk-headless liblucene8-java).`);
const describeWithLucene = available ? describe : describe.skip;

const SEED = Number(process.env.ANALYSIS_SEED ?? 20261125);

const show = (t: { term: string; start: number; end: number; positionIncrement: number; type: string }) => `${t.term}|${t.start}|${t.end}|${t.positionIncrement}|${t.type}`;

describeWithLucene('the named analyzers against Lucene', () => {
  afterAll(() => {
    if ('close' in oracle) oracle.close();
  });
  const rand = random(SEED);
  const texts = [...Array.from({ length: 3000 }, () => randomText(rand)), ...longTexts(), '', ' ', "The dogs' owners ran running races; John's ＡＢＣ ｶﾞｷﾞ 東京都 日本語 한국어 ひらがな"];

  it.each(ANALYZER_NAMES)('%s tokenizes as Lucene does', (name) => {
    const analyzer = analyzerByName(name);
    if (analyzer === undefined) throw new Error(name);
    const expected = (oracle as Exclude<typeof oracle, { missing: string }>).run(name, texts).map((tokens) => tokens.map(show));
    const ours = texts.map((text) => analyzer.tokens(text).map(show));
    const wrong = texts.flatMap((text, i) => (JSON.stringify(ours[i]) === JSON.stringify(expected[i]) ? [] : [{ text, ours: ours[i], lucene: expected[i] }]));
    expect(wrong.slice(0, 3)).toEqual([]);
    // terms() gives the same terms as tokens()
    const terms = texts.map((text) => analyzer.terms(text));
    expect(terms.filter((t, i) => JSON.stringify(t) !== JSON.stringify(ours[i].map((s) => s.split('|')[0])))).toEqual([]);
  });

  it('english stems thousands of words as the PorterStemmer of Lucene does', () => {
    const english = analyzerByName('english');
    if (english === undefined) throw new Error('english');
    const stems = ['', 'a', 'y', 'sky', 'ion', 'generat', 'relat', 'hop', 'fil', 'fail', 'conflat', 'troubl', 'siz', 'agre', 'ee', 'motor', 'cat', 'oscill', 'formal', 'sensibl', 'electr', 'goodn', 'adjust', 'depend', 'bowdler', 'communis', 'effect', 'homolog', 'sens', 'contro', 'roll', 'cease', 'tanni', 'abc', 'xyz', 'happi', 'ay', 'oy', 'yy'];
    const suffixes = ['', 's', 'es', 'sses', 'ies', 'ss', 'ed', 'eed', 'ing', 'ings', 'at', 'ated', 'bl', 'bled', 'iz', 'izing', 'y', 'ational', 'tional', 'enci', 'anci', 'izer', 'bli', 'alli', 'entli', 'eli', 'ousli', 'ization', 'ation', 'ator', 'alism', 'iveness', 'fulness', 'ousness', 'aliti', 'iviti', 'biliti', 'logi', 'icate', 'ative', 'alize', 'iciti', 'ical', 'ful', 'ness', 'al', 'ance', 'ence', 'er', 'ic', 'able', 'ible', 'ant', 'ement', 'ment', 'ent', 'sion', 'tion', 'ion', 'ou', 'ism', 'ate', 'iti', 'ous', 'ive', 'ize', 'e', 'll', 'le'];
    const rand = random(SEED + 1);
    const words = Array.from({ length: 6000 }, () => {
      const word = stems[Math.floor(rand() * stems.length)] + suffixes[Math.floor(rand() * suffixes.length)] + (rand() < 0.3 ? suffixes[Math.floor(rand() * suffixes.length)] : '');
      return rand() < 0.1 ? word.toUpperCase() : word;
    });
    const text = words.map((w) => w || 'x').join(' ');
    const expected = (oracle as Exclude<typeof oracle, { missing: string }>).run('english', [text])[0].map(show);
    expect(english.tokens(text).map(show)).toEqual(expected);
  });
});
