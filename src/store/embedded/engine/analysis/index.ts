/** Text analysis: the named analyzers (analyzers.ts) and what they are made of. */
export { ANALYZER_NAMES, STANDARD, analyzeTerms, analyzerByName } from './analyzers';
export type { AnalyzedTerms, Analyzer, AnalyzerName } from './analyzers';
export type { Token } from './tokens';
