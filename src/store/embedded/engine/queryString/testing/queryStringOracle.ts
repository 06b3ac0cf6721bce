/**
 * Test support: runs QueryStringOracle.java (compiled with javac into a temporary directory)
 * against the Lucene jars installed on this machine (lucene-core, lucene-queryparser, lucene-misc
 * for LegacyBM25Similarity), to compare the engine's query_string and simple_query_string with
 * Lucene's own parsers, hits and scores. Debian/Ubuntu: `apt-get install -y default-jdk-headless
 * liblucene8-java` (jars in /usr/share/java); elsewhere set LUCENE_CORE_JAR, LUCENE_QUERYPARSER_JAR
 * and LUCENE_MISC_JAR.
 */
import { join } from 'node:path';
import { hex, javaOracle } from '../../automaton/testing/luceneOracle';

/** A document: its id and its text fields. */
export interface OracleDoc {
  readonly id: string;
  readonly fields: Readonly<Record<string, string>>;
}

/** A query string and how Lucene parses it: classic (QueryParser / MultiFieldQueryParser) or simple (SimpleQueryParser, with flags). */
export interface OracleQuery {
  readonly syntax: 'classic' | 'simple';
  readonly operator: 'or' | 'and';
  /** Field -> boost. */
  readonly fields: Readonly<Record<string, number>>;
  readonly flags?: number;
  readonly query: string;
}

export type OracleAnswer =
  | { readonly ok: true; readonly total: number; readonly hits: readonly { readonly id: string; readonly score: number }[] }
  | { readonly ok: false; readonly type: string; readonly message: string };

export interface QueryStringOracle {
  run(docs: readonly OracleDoc[], queries: readonly OracleQuery[]): OracleAnswer[];
  close(): void;
}

/** The oracle, or why it cannot run here. */
export function queryStringOracle(): QueryStringOracle | { readonly missing: string } {
  const java = javaOracle(join(__dirname, 'QueryStringOracle.java'), ['core', 'queryparser', 'misc']);
  if ('missing' in java) return java;
  const fields = (weights: Readonly<Record<string, number>>) =>
    Object.entries(weights)
      .map(([name, boost]) => (boost === 1 ? name : `${name}^${boost}`))
      .join(',');
  return {
    run(docs, queries) {
      const lines = [
        String(docs.length),
        ...docs.map((d) => [d.id, ...Object.entries(d.fields).map(([name, value]) => `${name}=${hex(value)}`)].join('\t')),
        ...queries.map((q) => (q.syntax === 'classic' ? ['C', q.operator.toUpperCase(), fields(q.fields), hex(q.query)] : ['S', q.operator.toUpperCase(), fields(q.fields), String(q.flags ?? -1), hex(q.query)]).join('\t')),
      ];
      return java.run(lines).map((line): OracleAnswer => {
        const [status, a, b] = line.split('\t');
        if (status !== 'OK') return { ok: false, type: a, message: b };
        const hits = (b ?? '') === '' ? [] : b.split(' ').map((hit) => ({ id: hit.slice(0, hit.lastIndexOf(':')), score: Number(hit.slice(hit.lastIndexOf(':') + 1)) }));
        return { ok: true, total: Number(a), hits };
      });
    },
    close: () => java.close(),
  };
}
