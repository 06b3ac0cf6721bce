/**
 * Test support: runs ScoringOracle.java (compiled with javac into a temporary directory) against the
 * Lucene jars installed on this machine (lucene-core, lucene-misc for LegacyBM25Similarity, lucene-queries for FunctionScoreQuery, lucene-sandbox for BM25FQuery, lucene-join for ToParentBlockJoinQuery,
 * lucene-analyzers-common for the english and cjk analyzers), to
 * compare the engine's hits and scores with Lucene's for queries built as Elasticsearch builds them.
 * Debian/Ubuntu: `apt-get install -y default-jdk-headless liblucene8-java` (jars in /usr/share/java);
 * elsewhere set LUCENE_CORE_JAR and LUCENE_MISC_JAR.
 */
import { join } from 'node:path';
import { hex, javaOracle } from '../../automaton/testing/luceneOracle';

/** A document: its id and its fields, each text (analyzed: standard without stop words, english, cjk) or keyword (one term). */
export interface OracleDoc {
  readonly id: string;
  readonly fields: readonly OracleField[];
  /** Its nested objects' documents (indexed in a block before it, as Elasticsearch does, each after its own nested objects' documents), for `q.nested`. */
  readonly children?: readonly { readonly fields: readonly OracleField[]; readonly children?: readonly { readonly fields: readonly OracleField[] }[] }[];
}

export interface OracleField {
  readonly name: string;
  readonly kind: 'text' | 'english' | 'cjk' | 'keyword';
  readonly value: string;
}

const KINDS = { text: 'T', english: 'E', cjk: 'C', keyword: 'K' } as const;

export interface OracleHits {
  readonly total: number;
  /** Every match, best first (ties in index order). */
  readonly hits: readonly { readonly id: string; readonly score: number }[];
}

export type OracleAnswer = ({ readonly ok: true } & OracleHits) | { readonly ok: false; readonly type: string; readonly message: string };

export interface ScoringOracle {
  run(docs: readonly OracleDoc[], queries: readonly string[]): OracleAnswer[];
  close(): void;
}

/** Query expressions (ScoringOracle.java's S-expressions). */
export const q = {
  term: (field: string, term: string) => `(term ${hex(field)} ${hex(term)})`,
  prefix: (field: string, prefix: string) => `(prefix ${hex(field)} ${hex(prefix)})`,
  /** FuzzyQuery; with `options`, its prefix length, max expansions, transpositions and rewrite (an Elasticsearch rewrite name, or "default"). */
  fuzzy: (field: string, term: string, edits: number, options?: { prefix: number; maxExpansions: number; transpositions: boolean; rewrite: string }) =>
    options === undefined
      ? `(fuzzy ${hex(field)} ${hex(term)} ${edits})`
      : `(fuzzy ${hex(field)} ${hex(term)} ${edits} ${options.prefix} ${options.maxExpansions} ${options.transpositions ? 1 : 0} ${options.rewrite})`,
  boost: (boost: number, query: string) => (boost === 1 ? query : `(boost ${boost} ${query})`),
  boostByQuery: (negativeBoost: number, positive: string, negative: string) => `(boostbyquery ${negativeBoost} ${positive} ${negative})`,
  dismax: (tie: number, queries: readonly string[]) => `(dismax ${tie} ${queries.join(' ')})`,
  bool: (msm: number, clauses: readonly [occur: 'should' | 'must' | 'filter' | 'mustnot', query: string][]) => `(bool ${msm} ${clauses.map(([o, c]) => `(${o} ${c})`).join(' ')})`,
  phrasePrefix: (field: string, slop: number, maxExpansions: number, terms: readonly string[]) => `(phraseprefix ${hex(field)} ${slop} ${maxExpansions} ${terms.map(hex).join(' ')})`,
  /** IntervalQuery over a source written with `iv`. */
  intervals: (field: string, source: string) => `(intervals ${hex(field)} ${source})`,
  /** BM25FQuery over the fields (with weights) and terms, scored as LegacyBM25 scores. */
  bm25f: (fields: readonly [field: string, weight: number][], terms: readonly string[]) => `(bm25f ${fields.length} ${fields.map(([f, w]) => `${hex(f)} ${w}`).join(' ')} ${terms.map(hex).join(' ')})`,
  /** `match` as QueryBuilder builds it with the field's analyzer (the text analyzed by Lucene). */
  match: (field: string, operator: 'or' | 'and', text: string) => `(match ${hex(field)} ${operator} ${hex(text)})`,
  /** `match_phrase` likewise. */
  matchPhrase: (field: string, slop: number, text: string) => `(matchphrase ${hex(field)} ${slop} ${hex(text)})`,
  /** ToParentBlockJoinQuery of a query over the documents' children (lucene-join), as `nested` builds it. */
  nested: (scoreMode: 'avg' | 'max' | 'min' | 'sum' | 'none', query: string) => `(nested ${scoreMode} ${query})`,
  /** The same joined to the documents of a level (1: children, 2: grandchildren): a nested query inside another. */
  nestedIn: (level: 1 | 2, scoreMode: 'avg' | 'max' | 'min' | 'sum' | 'none', query: string) => `(nestedin ${level} ${scoreMode} ${query})`,
  blend: (tie: number, term: string, fields: readonly [field: string, boost: number][]) => `(blend ${tie} ${hex(term)} ${fields.map(([f, b]) => `(${hex(f)} ${b})`).join(' ')})`,
};

/** IntervalsSource expressions (ScoringOracle.java's intervalsSource). */
export const iv = {
  term: (term: string) => `(iterm ${hex(term)})`,
  prefix: (prefix: string) => `(iprefix ${hex(prefix)})`,
  wildcard: (pattern: string) => `(iwildcard ${hex(pattern)})`,
  fuzzy: (term: string, edits: number, prefix: number, transpositions: boolean) => `(ifuzzy ${hex(term)} ${edits} ${prefix} ${transpositions ? 1 : 0})`,
  extend: (source: string, before: number, after: number) => `(iextend ${source} ${before} ${after})`,
  maxgaps: (gaps: number, source: string) => `(imaxgaps ${gaps} ${source})`,
  /** or, ordered, unordered, phrase, and the filters (two sources: the filtered one, then the other). */
  of: (kind: 'or' | 'ordered' | 'unordered' | 'phrase' | 'containing' | 'containedby' | 'notcontaining' | 'notcontainedby' | 'overlapping' | 'nonoverlapping' | 'before' | 'after', sources: readonly string[]) =>
    `(i${kind} ${sources.join(' ')})`,
};

/** The oracle, or why it cannot run here. */
export function scoringOracle(): ScoringOracle | { readonly missing: string } {
  const java = javaOracle(join(__dirname, 'ScoringOracle.java'), ['core', 'misc', 'queries', 'sandbox', 'analyzers-common', 'join']);
  if ('missing' in java) return java;
  return {
    run(docs, queries) {
      const lines = [
        ...docs.flatMap((d) => [
          ...(d.children ?? []).flatMap((c) => [
            ...(c.children ?? []).map((g) => ['G', '0000', ...g.fields.flatMap((f) => [hex(f.name), KINDS[f.kind], hex(f.value)])].join(' ')),
            ['N', '0000', ...c.fields.flatMap((f) => [hex(f.name), KINDS[f.kind], hex(f.value)])].join(' '),
          ]),
          ['D', hex(d.id), ...d.fields.flatMap((f) => [hex(f.name), KINDS[f.kind], hex(f.value)])].join(' '),
        ]),
        ...queries.map((expr) => `Q ${expr}`),
      ];
      return java.run(lines).map((line): OracleAnswer => {
        const [status, a, b] = line.split('\t');
        if (status !== 'OK') return { ok: false, type: a, message: b };
        const hits = b === '' ? [] : b.split(',').map((hit) => ({ id: unhex(hit.slice(0, hit.indexOf(':'))), score: Number(hit.slice(hit.indexOf(':') + 1)) }));
        return { ok: true, total: Number(a), hits };
      });
    },
    close: () => java.close(),
  };
}

function unhex(text: string): string {
  let out = '';
  for (let i = 0; i + 4 <= text.length; i += 4) out += String.fromCharCode(parseInt(text.slice(i, i + 4), 16));
  return out;
}
