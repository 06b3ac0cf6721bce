/**
 * Lucene's StopFilter (a FilteringTokenFilter): the tokens whose term is in the set are removed, the
 * positions they held added to the next token kept. The stop sets of the analyzers Elasticsearch
 * names: `english` (EnglishAnalyzer.ENGLISH_STOP_WORDS_SET) and `cjk` (CJKAnalyzer's stopwords.txt).
 */
import { Token } from './tokens';

export const ENGLISH_STOP_WORDS: ReadonlySet<string> = new Set([
  'a', 'an', 'and', 'are', 'as', 'at', 'be', 'but', 'by', 'for', 'if', 'in', 'into', 'is', 'it', 'no', 'not', 'of', 'on', 'or', 'such', 'that', 'the', 'their', 'then', 'there', 'these', 'they', 'this', 'to', 'was', 'will', 'with',
]);

export const CJK_STOP_WORDS: ReadonlySet<string> = new Set([
  'a', 'and', 'are', 'as', 'at', 'be', 'but', 'by', 'for', 'if', 'in', 'into', 'is', 'it', 'no', 'not', 'of', 'on', 'or', 's', 'such', 't', 'that', 'the', 'their', 'then', 'there', 'these', 'they', 'this', 'to', 'was', 'will', 'with', 'www',
]);

export function stopFilter(tokens: readonly Token[], stopWords: ReadonlySet<string>): Token[] {
  const kept: Token[] = [];
  let skipped = 0;
  for (const token of tokens) {
    if (stopWords.has(token.term)) {
      skipped += token.positionIncrement;
      continue;
    }
    kept.push(skipped === 0 ? token : { ...token, positionIncrement: token.positionIncrement + skipped });
    skipped = 0;
  }
  return kept;
}
