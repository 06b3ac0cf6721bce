/**
 * Test support: runs LuceneOracle.java (compiled with javac into a temporary directory) against
 * the Lucene core jar installed on this machine, to compare our automata with Lucene's.
 * Debian/Ubuntu: `apt-get install -y default-jdk-headless liblucene8-java` (the jar lands in
 * /usr/share/java); elsewhere set LUCENE_CORE_JAR to a lucene-core jar.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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
  const jar = process.env.LUCENE_CORE_JAR ?? findJar('/usr/share/java');
  if (jar === undefined || !existsSync(jar)) return { missing: 'no lucene-core jar (LUCENE_CORE_JAR, or /usr/share/java/lucene-core*.jar)' };
  for (const tool of ['java', 'javac']) {
    try {
      execFileSync(tool, ['-version'], { stdio: 'ignore' });
    } catch {
      return { missing: `no ${tool} on the PATH` };
    }
  }
  const dir = mkdtempSync(join(tmpdir(), 'lucene-oracle-'));
  execFileSync('javac', ['-nowarn', '-cp', jar, '-d', dir, join(__dirname, 'LuceneOracle.java')], { stdio: 'pipe' });
  return {
    jar,
    run(terms, queries) {
      const input = [String(terms.length), ...terms.map(hex), ...queries.map((q) => [q.kind, q.flags, q.caseInsensitive ? 1 : 0, hex(q.pattern)].join('\t'))].join('\n');
      const output = execFileSync('java', ['-cp', `${dir}:${jar}`, 'LuceneOracle'], { input: `${input}\n`, maxBuffer: 1 << 28 }).toString('utf8');
      return output
        .split('\n')
        .filter((line) => line !== '')
        .map((line): OracleResult => {
          const [status, a, b] = line.split('\t');
          return status === 'OK' ? { ok: true, accepted: Array.from(a, (bit) => bit === '1') } : { ok: false, type: a, message: b };
        });
    },
    close() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function findJar(dir: string): string | undefined {
  if (!existsSync(dir)) return undefined;
  const jars = readdirSync(dir).filter((name) => /^lucene[0-9]*-core(-[0-9.]+)?\.jar$/.test(name));
  jars.sort(); // unversioned names first, then the oldest version
  return jars.length > 0 ? join(dir, jars[0]) : undefined;
}

function hex(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) out += text.charCodeAt(i).toString(16).padStart(4, '0');
  return out;
}
