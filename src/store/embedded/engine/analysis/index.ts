/** Text analysis: the named analyzers (analyzers.ts) and what they are made of. */
export { ANALYZER_NAMES, analyzerByName } from './analyzers';
export type { Analyzer, AnalyzerName } from './analyzers';
export type { Token } from './tokens';
