/**
 * The built-in analyzers of Elasticsearch a text field may name (`analyzer`, `search_analyzer`),
 * each as Lucene builds it:
 * - `standard`: StandardTokenizer (UAX #29, standardTokenizer.ts), LowerCaseFilter; no stop words;
 * - `simple`: LetterTokenizer (runs of letters), LowerCaseFilter;
 * - `whitespace`: WhitespaceTokenizer (runs of non-whitespace), nothing else: case is kept;
 * - `stop`: `simple` without the English stop words (StopAnalyzer with ENGLISH_STOP_WORDS_SET);
 * - `keyword`: the whole value, one token;
 * - `english`: StandardTokenizer, EnglishPossessiveFilter, LowerCaseFilter, StopFilter (English stop
 *   words), PorterStemFilter;
 * - `cjk`: StandardTokenizer, CJKWidthFilter, LowerCaseFilter, CJKBigramFilter (Han, Hiragana,
 *   Katakana, Hangul), StopFilter (CJKAnalyzer's stop words).
 * `analyzerByName` answers undefined for any other name.
 */
import { analyzeText } from '../analyzer';
import { cjkBigrams, cjkWidth } from './cjk';
import { isLetter, isWhitespace, scanChars } from './charTokenizer';
import { removePossessive } from './englishPossessive';
import { lowerCase } from './lowerCase';
import { porterStem } from './porterStemmer';
import { TOKEN_TYPES, scanStandard } from './standardTokenizer';
import { CJK_STOP_WORDS, ENGLISH_STOP_WORDS, stopFilter } from './stopFilter';
import { Token } from './tokens';

export const ANALYZER_NAMES = ['standard', 'simple', 'whitespace', 'stop', 'keyword', 'english', 'cjk'] as const;
export type AnalyzerName = (typeof ANALYZER_NAMES)[number];

export interface Analyzer {
  readonly name: AnalyzerName;
  /** The tokens of one value, in order, with their offsets, position increments and types. */
  tokens(text: string): Token[];
  /** Their terms alone, in order (positions: see `tokens` when a filter removes tokens). */
  terms(text: string): string[];
  /**
   * A term of a term-level query as the analyzer normalizes it (Lucene's Analyzer.normalize: only the
   * filters that work per character: lower case, and CJK width folding for `cjk`; nothing for
   * `whitespace` and `keyword`): what a prefix, wildcard, fuzzy or range of a query string searches.
   */
  normalize(text: string): string;
}

/** StandardTokenizer's tokens, each term passed through `term`. */
function standardTokens(text: string, term: (text: string) => string = (t) => t): Token[] {
  const tokens: Token[] = [];
  scanStandard(text, 0, text.length, (type, start, end) => {
    tokens.push({ term: term(text.slice(start, end)), start, end, positionIncrement: 1, type: TOKEN_TYPES[type] });
  });
  return tokens;
}

function charTokens(text: string, isTokenChar: (cp: number) => boolean, term: (text: string) => string): Token[] {
  const tokens: Token[] = [];
  scanChars(text, isTokenChar, (start, end) => {
    tokens.push({ term: term(text.slice(start, end)), start, end, positionIncrement: 1, type: 'word' });
  });
  return tokens;
}

const notWhitespace = (cp: number) => !isWhitespace(cp);
const same = (t: string) => t;
const termsOf = (tokens: readonly Token[]) => tokens.map((t) => t.term);

function analyzer(name: AnalyzerName, normalize: (text: string) => string, tokens: (text: string) => Token[], terms: (text: string) => string[] = (text) => termsOf(tokens(text))): Analyzer {
  return { name, tokens, terms, normalize };
}

const ANALYZERS: ReadonlyMap<string, Analyzer> = new Map(
  [
    analyzer('standard', lowerCase, (text) => standardTokens(text, lowerCase), analyzeText),
    analyzer('simple', lowerCase, (text) => charTokens(text, isLetter, lowerCase)),
    analyzer('whitespace', same, (text) => charTokens(text, notWhitespace, same)),
    analyzer('stop', lowerCase, (text) => stopFilter(charTokens(text, isLetter, lowerCase), ENGLISH_STOP_WORDS)),
    analyzer('keyword', same, (text) => [{ term: text, start: 0, end: text.length, positionIncrement: 1, type: 'word' }]),
    analyzer('english', lowerCase, (text) =>
      stopFilter(
        standardTokens(text, (t) => lowerCase(removePossessive(t))),
        ENGLISH_STOP_WORDS,
      ).map((token) => ({ ...token, term: porterStem(token.term) })),
    ),
    analyzer('cjk', (text) => lowerCase(cjkWidth(text)), (text) => stopFilter(cjkBigrams(standardTokens(text, (t) => lowerCase(cjkWidth(t)))), CJK_STOP_WORDS)),
  ].map((a) => [a.name, a]),
);

/** The analyzer Elasticsearch calls `name`, or undefined when there is none by that name here. */
export function analyzerByName(name: string): Analyzer | undefined {
  return ANALYZERS.get(name);
}

/** The standard analyzer (every text field's unless its mapping names another). */
export const STANDARD: Analyzer = ANALYZERS.get('standard') as Analyzer;

/** A text analyzed for a query: its terms and the position of each (Lucene's QueryBuilder: -1 plus the increments, so a removed stop word leaves a gap). */
export interface AnalyzedTerms {
  readonly terms: string[];
  readonly positions: number[];
}

/** The terms of `text` with their positions; the standard analyzer's positions are 0, 1, 2... */
export function analyzeTerms(analyzer: Analyzer, text: string): AnalyzedTerms {
  if (analyzer === STANDARD) {
    const terms = analyzeText(text);
    return { terms, positions: terms.map((_, i) => i) };
  }
  const terms: string[] = [];
  const positions: number[] = [];
  let position = -1;
  for (const token of analyzer.tokens(text)) {
    position += token.positionIncrement;
    terms.push(token.term);
    positions.push(position);
  }
  return { terms, positions };
}
