/**
 * Differential test against the real Lucene: StandardTokenizer's tokens (text, offsets, types) for
 * thousands of seeded random texts (testing/generate.ts) and long runs around max_token_length, run
 * by standardTokenizer.ts and by Lucene's StandardTokenizer (testing/AnalysisOracle.java). Needs
 * java, javac and the Lucene 8 jars (Debian: `apt-get install -y default-jdk-headless
 * liblucene8-java`); skipped with a message otherwise.
 */
import { TOKEN_TYPES, standardTokenize } from './standardTokenizer';
import { analysisOracle } from './testing/analysisOracle';
import { longTexts, random, randomText } from './testing/generate';

const oracle = analysisOracle();
const available = 'run' in oracle;
if (!available) console.warn(`Skipping the StandardTokenizer Lucene differential test: ${oracle.missing}. Install java, javac and Lucene (Debian: apt-get install -y default-jdk-headless liblucene8-java).`);
const describeWithLucene = available ? describe : describe.skip;

const SEED = Number(process.env.ANALYSIS_SEED ?? 20261125);

const ours = (text: string) => standardTokenize(text).map((t) => `${t.text}|${t.start}|${t.end}|${TOKEN_TYPES[t.type]}`);

describeWithLucene('StandardTokenizer against Lucene', () => {
  afterAll(() => {
    if ('close' in oracle) oracle.close();
  });

  const lucene = (texts: string[]) => (oracle as Exclude<typeof oracle, { missing: string }>).run('tokenizer', texts).map((tokens) => tokens.map((t) => `${t.term}|${t.start}|${t.end}|${t.type}`));

  it('tokenizes the examples of the issue as Lucene does', () => {
    const texts = ['東京都 日本語', 'a note 👍🏽 here', "Don't pay 1,000.5 to U.S.A at example.com or user@example.org", 'ひらがなカタカナ한국어', '👨‍👩‍👧 🇫🇷 #️⃣'];
    expect(texts.map(ours)).toEqual(lucene(texts));
    expect(ours('東京都 日本語').map((t) => t.split('|')[0])).toEqual(['東', '京', '都', '日', '本', '語']);
    expect(ours('a note 👍🏽 here').map((t) => t.split('|')[0])).toEqual(['a', 'note', '👍🏽', 'here']);
  });

  it('tokenizes thousands of random texts as Lucene does', () => {
    const rand = random(SEED);
    const texts = Array.from({ length: 5000 }, () => randomText(rand));
    const expected = lucene(texts);
    const wrong = texts.filter((text, i) => JSON.stringify(ours(text)) !== JSON.stringify(expected[i]));
    expect(wrong.slice(0, 3).map((text) => ({ text, ours: ours(text), lucene: lucene([text])[0] }))).toEqual([]);
  });

  it('cuts tokens longer than max_token_length where Lucene does', () => {
    const texts = longTexts();
    expect(texts.map(ours)).toEqual(lucene(texts));
  });

  it('classes every code point as Lucene does (each alone, and after a letter)', () => {
    const texts: string[] = [];
    for (let cp = 0; cp < 0x110000; cp += cp < 0x10000 ? 1 : cp < 0x30000 ? 7 : 997) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const ch = String.fromCodePoint(cp);
      texts.push(`${ch} a${ch}1 ${ch}${ch}`);
    }
    const expected = lucene(texts);
    const wrong = texts.filter((text, i) => JSON.stringify(ours(text)) !== JSON.stringify(expected[i]));
    expect(wrong.slice(0, 3).map((text) => ({ text, code: text.codePointAt(0)?.toString(16), ours: ours(text), lucene: lucene([text])[0] }))).toEqual([]);
  });
});
