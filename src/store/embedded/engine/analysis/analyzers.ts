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

function analyzer(name: AnalyzerName, tokens: (text: string) => Token[], terms: (text: string) => string[] = (text) => termsOf(tokens(text))): Analyzer {
  return { name, tokens, terms };
}

const ANALYZERS: ReadonlyMap<string, Analyzer> = new Map(
  [
    analyzer('standard', (text) => standardTokens(text, lowerCase), analyzeText),
    analyzer('simple', (text) => charTokens(text, isLetter, lowerCase)),
    analyzer('whitespace', (text) => charTokens(text, notWhitespace, same)),
    analyzer('stop', (text) => stopFilter(charTokens(text, isLetter, lowerCase), ENGLISH_STOP_WORDS)),
    analyzer('keyword', (text) => [{ term: text, start: 0, end: text.length, positionIncrement: 1, type: 'word' }]),
    analyzer('english', (text) =>
      stopFilter(
        standardTokens(text, (t) => lowerCase(removePossessive(t))),
        ENGLISH_STOP_WORDS,
      ).map((token) => ({ ...token, term: porterStem(token.term) })),
    ),
    analyzer('cjk', (text) => stopFilter(cjkBigrams(standardTokens(text, (t) => lowerCase(cjkWidth(t)))), CJK_STOP_WORDS)),
  ].map((a) => [a.name, a]),
);

/** The analyzer Elasticsearch calls `name`, or undefined when there is none by that name here. */
export function analyzerByName(name: string): Analyzer | undefined {
  return ANALYZERS.get(name);
}
