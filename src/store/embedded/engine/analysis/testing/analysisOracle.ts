/**
 * Test support: runs AnalysisOracle.java (compiled with javac into a temporary directory) against the
 * Lucene jars installed on this machine (lucene-core and lucene-analyzers-common), to compare the
 * engine's analyzers with Lucene's: each text's tokens with their offsets, position increments and
 * types. Debian/Ubuntu: `apt-get install -y default-jdk-headless liblucene8-java`; elsewhere set
 * LUCENE_CORE_JAR and LUCENE_ANALYZERS-COMMON_JAR.
 */
import { join } from 'node:path';
import { hex, javaOracle } from '../../automaton/testing/luceneOracle';

/** A token as Lucene gives it. */
export interface OracleToken {
  readonly term: string;
  readonly start: number;
  readonly end: number;
  readonly positionIncrement: number;
  readonly type: string;
}

export interface AnalysisOracle {
  /** The tokens of each text by the named analyzer (`tokenizer`: StandardTokenizer alone). */
  run(analyzer: string, texts: readonly string[]): OracleToken[][];
  close(): void;
}

/** The oracle, or why it cannot run here. */
export function analysisOracle(): AnalysisOracle | { readonly missing: string } {
  const java = javaOracle(join(__dirname, 'AnalysisOracle.java'), ['core', 'analyzers-common']);
  if ('missing' in java) return java;
  return {
    run(analyzer, texts) {
      return java.run(texts.map((text) => `${analyzer} ${hex(text)}`)).map((line) =>
        line
          .split(' ')
          .slice(1)
          .map((token) => {
            const [term, start, end, increment, type] = token.split(',');
            return { term: unhex(term), start: Number(start), end: Number(end), positionIncrement: Number(increment), type };
          }),
      );
    },
    close: () => java.close(),
  };
}

function unhex(text: string): string {
  let out = '';
  for (let i = 0; i + 4 <= text.length; i += 4) out += String.fromCharCode(parseInt(text.slice(i, i + 4), 16));
  return out;
}
