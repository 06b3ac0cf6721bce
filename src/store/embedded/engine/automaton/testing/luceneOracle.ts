/**
 * Test support: runs LuceneOracle.java (compiled with javac into a temporary directory) against
 * the Lucene core jar installed on this machine, to compare our automata with Lucene's.
 * Debian/Ubuntu: `apt-get install -y default-jdk-headless liblucene8-java` (the jar lands in
 * /usr/share/java); elsewhere set LUCENE_CORE_JAR to a lucene-core jar.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

export interface OracleQuery {
  /** R: RegExp, W: wildcard. */
  readonly kind: 'R' | 'W';
  readonly flags: number;
  readonly caseInsensitive: boolean;
  readonly pattern: string;
}

export type OracleResult = { readonly ok: true; readonly accepted: readonly boolean[] } | { readonly ok: false; readonly type: string; readonly message: string };

export interface LuceneOracle {
  readonly jar: string;
  run(terms: readonly string[], queries: readonly OracleQuery[]): OracleResult[];
  close(): void;
}

/** The oracle, or why it cannot run here. */
export function luceneOracle(): LuceneOracle | { readonly missing: string } {
  const java = javaOracle(join(__dirname, 'LuceneOracle.java'), ['core']);
  if ('missing' in java) return java;
  return {
    jar: java.jars[0],
    run(terms, queries) {
      const lines = [String(terms.length), ...terms.map(hex), ...queries.map((q) => [q.kind, q.flags, q.caseInsensitive ? 1 : 0, hex(q.pattern)].join('\t'))];
      return java.run(lines).map((line): OracleResult => {
        const [status, a, b] = line.split('\t');
        return status === 'OK' ? { ok: true, accepted: Array.from(a, (bit) => bit === '1') } : { ok: false, type: a, message: b };
      });
    },
    close: () => java.close(),
  };
}

/** A Java test oracle, compiled into a temporary directory against Lucene jars. */
export interface JavaOracle {
  readonly jars: readonly string[];
  /** Runs it with these lines on its standard input; the non-empty lines of its output. */
  run(lines: readonly string[]): string[];
  close(): void;
}

/**
 * Compiles `source` (a .java file whose class has the file's name) against the jars of these Lucene
 * modules (`core`, `misc`...: LUCENE_<MODULE>_JAR, else found in /usr/share/java), or tells why it
 * cannot (no jar, no java or javac).
 */
export function javaOracle(source: string, modules: readonly string[]): JavaOracle | { readonly missing: string } {
  const jars: string[] = [];
  for (const module of modules) {
    const variable = `LUCENE_${module.toUpperCase()}_JAR`;
    const jar = process.env[variable] ?? findLuceneJar(module);
    if (jar === undefined || !existsSync(jar)) return { missing: `no lucene-${module} jar (${variable}, or /usr/share/java/lucene-${module}*.jar)` };
    jars.push(jar);
  }
  for (const tool of ['java', 'javac']) {
    try {
      execFileSync(tool, ['-version'], { stdio: 'ignore' });
    } catch {
      return { missing: `no ${tool} on the PATH` };
    }
  }
  const classpath = jars.join(':');
  const dir = mkdtempSync(join(tmpdir(), 'lucene-oracle-'));
  execFileSync('javac', ['-nowarn', '-cp', classpath, '-d', dir, source], { stdio: 'pipe' });
  const className = basename(source, '.java');
  return {
    jars,
    run(lines) {
      const output = execFileSync('java', ['-cp', `${dir}:${classpath}`, className], { input: `${lines.join('\n')}\n`, maxBuffer: 1 << 28 }).toString('utf8');
      return output.split('\n').filter((line) => line !== '');
    },
    close() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A Lucene module's jar (`core`, `misc`...) in `dir`: the unversioned name first, then the oldest version. */
export function findLuceneJar(module: string, dir = '/usr/share/java'): string | undefined {
  if (!existsSync(dir)) return undefined;
  const pattern = new RegExp(`^lucene[0-9]*-${module}(-[0-9.]+)?\\.jar$`);
  const jars = readdirSync(dir).filter((name) => pattern.test(name));
  jars.sort();
  return jars.length > 0 ? join(dir, jars[0]) : undefined;
}

/** A string as its UTF-16 code units in hex, four digits each (lone surrogates and line breaks travel safely). */
export function hex(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) out += text.charCodeAt(i).toString(16).padStart(4, '0');
  return out;
}
