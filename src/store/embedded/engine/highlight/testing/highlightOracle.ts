/**
 * Test support: runs HighlightOracle.java (compiled with javac into a temporary directory) against the
 * Lucene 8.7 jars installed on this machine, to compare our highlighter with Lucene's unified
 * highlighter and our break rules with the JDK's. Debian/Ubuntu: `apt-get install -y
 * default-jdk-headless liblucene8-java` (the jars land in /usr/share/java); elsewhere set
 * LUCENE_JARS_DIR to a directory holding lucene-core, -highlighter, -analyzers-common, -memory and
 * -queries jars.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const MODULES = ['core', 'highlighter', 'analyzers-common', 'memory', 'queries'];

export type OracleQuery =
  | { readonly t: 'term'; readonly field: string; readonly term: string }
  | { readonly t: 'phrase'; readonly field: string; readonly terms: readonly string[]; readonly slop: number }
  | { readonly t: 'bool'; readonly msm: number; readonly clauses: readonly (readonly ['must' | 'should' | 'filter' | 'must_not', OracleQuery])[] }
  | { readonly t: 'prefix'; readonly field: string; readonly value: string }
  | { readonly t: 'wildcard'; readonly field: string; readonly value: string }
  | { readonly t: 'disMax'; readonly tie: number; readonly queries: readonly OracleQuery[] }
  | { readonly t: 'constant'; readonly query: OracleQuery }
  | { readonly t: 'all' }
  | { readonly t: 'terms'; readonly field: string; readonly terms: readonly string[] }
  | { readonly t: 'range'; readonly field: string; readonly lower: string | null; readonly upper: string | null; readonly includeLower: boolean; readonly includeUpper: boolean };

export interface OracleRequest {
  readonly field: string;
  readonly analysis: 'standard' | 'keyword';
  readonly mode: 'sentence' | 'word' | 'whole';
  readonly maxPassages: number;
  readonly weightMatches: boolean;
  /** Terms of any field highlight (require_field_match: false). */
  readonly anyField: boolean;
  readonly values: readonly string[];
  readonly query: OracleQuery;
}

export interface OracleMatch {
  readonly start: number;
  readonly end: number;
  readonly term: string;
  readonly freq: number;
}

export interface OraclePassage {
  readonly start: number;
  readonly end: number;
  /** The float score, as Float.floatToIntBits. */
  readonly scoreBits: number;
  readonly matches: readonly OracleMatch[];
  /** DefaultPassageFormatter's text of the passage alone, matches in <b></b>. */
  readonly text: string;
}

export interface OracleBreaks {
  readonly sentences: number[];
  readonly words: number[];
  /** The sentence iterator's following(i) and preceding(i), for i from 0 to the text's length. */
  readonly following: number[];
  readonly preceding: number[];
}

export type Answer<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: string };

export interface HighlightOracle {
  highlight(requests: readonly OracleRequest[]): Answer<OraclePassage[]>[];
  breaks(texts: readonly string[]): Answer<OracleBreaks>[];
  htmlEncode(texts: readonly string[]): Answer<string>[];
  close(): void;
}

function hex(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) out += text.charCodeAt(i).toString(16).padStart(4, '0');
  return out;
}

function unhex(text: string): string {
  let out = '';
  for (let i = 0; i + 4 <= text.length; i += 4) out += String.fromCharCode(parseInt(text.slice(i, i + 4), 16));
  return out;
}

function queryTokens(q: OracleQuery): string[] {
  switch (q.t) {
    case 'term':
      return ['T', hex(q.field), hex(q.term)];
    case 'phrase':
      return ['P', hex(q.field), String(q.slop), String(q.terms.length), ...q.terms.map(hex)];
    case 'bool':
      return ['B', String(q.msm), String(q.clauses.length), ...q.clauses.flatMap(([occur, c]) => [{ must: 'M', should: 'S', filter: 'F', must_not: 'N' }[occur], ...queryTokens(c)])];
    case 'prefix':
      return ['X', hex(q.field), hex(q.value)];
    case 'wildcard':
      return ['W', hex(q.field), hex(q.value)];
    case 'disMax':
      return ['D', String(q.tie), String(q.queries.length), ...q.queries.flatMap(queryTokens)];
    case 'constant':
      return ['C', ...queryTokens(q.query)];
    case 'all':
      return ['A'];
    case 'terms':
      return ['I', hex(q.field), String(q.terms.length), ...q.terms.map(hex)];
    case 'range':
      return ['G', hex(q.field), q.lower === null ? '-' : hex(q.lower), q.upper === null ? '-' : hex(q.upper), q.includeLower ? '1' : '0', q.includeUpper ? '1' : '0'];
  }
}

function requestLine(r: OracleRequest): string {
  const head = ['H', hex(r.field), r.analysis === 'standard' ? 'S' : 'K', r.mode, String(r.maxPassages), r.weightMatches ? '1' : '0', r.anyField ? '1' : '0'];
  return [...head, String(r.values.length), ...r.values.map(hex), ...queryTokens(r.query)].join('\t');
}

function parsePassages(lines: string[]): OraclePassage[] {
  const count = Number(lines[0]);
  const out: OraclePassage[] = [];
  for (let i = 1; i <= count; i++) {
    const parts = lines[i].split(' ');
    const n = Number(parts[3]);
    const matches: OracleMatch[] = [];
    for (let j = 0; j < n; j++) {
      const k = 4 + 4 * j;
      matches.push({ start: Number(parts[k]), end: Number(parts[k + 1]), term: unhex(parts[k + 2]), freq: Number(parts[k + 3]) });
    }
    out.push({ start: Number(parts[0]), end: Number(parts[1]), scoreBits: Number(parts[2]), matches, text: unhex(parts[4 + 4 * n] ?? '') });
  }
  return out;
}

const numbers = (line: string): number[] => (line === '' ? [] : line.split(',').map(Number));

/** The oracle, or why it cannot run here. */
export function highlightOracle(): HighlightOracle | { readonly missing: string } {
  const dir = process.env.LUCENE_JARS_DIR ?? '/usr/share/java';
  const jars: string[] = [];
  for (const module of MODULES) {
    const jar = existsSync(dir) ? readdirSync(dir).find((name) => new RegExp(`^lucene-${module}-8\\.[0-9.]+\\.jar$`).test(name)) : undefined;
    if (jar === undefined) return { missing: `no lucene-${module}-8.x jar in ${dir} (LUCENE_JARS_DIR)` };
    jars.push(join(dir, jar));
  }
  for (const tool of ['java', 'javac']) {
    try {
      execFileSync(tool, ['-version'], { stdio: 'ignore' });
    } catch {
      return { missing: `no ${tool} on the PATH` };
    }
  }
  const classes = mkdtempSync(join(tmpdir(), 'highlight-oracle-'));
  const classpath = jars.join(':');
  execFileSync('javac', ['-nowarn', '-cp', classpath, '-d', classes, join(__dirname, 'HighlightOracle.java')], { stdio: 'pipe' });
  const run = <T>(lines: string[], parse: (answer: string[]) => T): Answer<T>[] => {
    const output = execFileSync('java', ['-cp', `${classes}:${classpath}`, 'HighlightOracle'], { input: `${lines.join('\n')}\n`, maxBuffer: 1 << 28 }).toString('utf8');
    const answers: Answer<T>[] = [];
    const all = output.split('\n');
    for (let i = 0; i < all.length; ) {
      if (all[i] === '') {
        i++;
        continue;
      }
      const status = all[i++];
      const body: string[] = [];
      while (all[i] !== 'END') body.push(all[i++]);
      i++;
      answers.push(status === 'OK' ? { ok: true, value: parse(body) } : { ok: false, error: body.join('\n') });
    }
    return answers;
  };
  return {
    highlight: (requests) => run(requests.map(requestLine), parsePassages),
    breaks: (texts) => run(texts.map((t) => `B\t${hex(t)}`), ([sentences, words, following, preceding]) => ({ sentences: numbers(sentences), words: numbers(words), following: numbers(following), preceding: numbers(preceding) })),
    htmlEncode: (texts) => run(texts.map((t) => `E\t${hex(t)}`), ([encoded]) => unhex(encoded)),
    close() {
      rmSync(classes, { recursive: true, force: true });
    },
  };
}
