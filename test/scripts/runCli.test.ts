/**
 * scripts/run-cli.js decides from tsc's build info whether dist/ is current: checked on a tree of
 * its own, the files' times set explicitly.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// plain JavaScript (it runs before the build), so required rather than imported
const { staleReason } = require('../../scripts/run-cli.js') as { staleReason: (root: string, target: string) => string | null };

const BUILT = new Date('2026-01-01T12:00:00Z');
const BEFORE = new Date('2026-01-01T11:00:00Z');
const AFTER = new Date('2026-01-01T13:00:00Z');

describe('run-cli: is dist/ current?', () => {
  let root: string;
  let target: string;
  const at = (file: string, time: Date) => utimesSync(join(root, file), time, time);
  const writeInfo = (extra: Record<string, unknown> = {}) => {
    writeFileSync(join(root, 'dist', 'tsconfig.build.tsbuildinfo'), JSON.stringify({ fileNames: ['../node_modules/typescript/lib/lib.es5.d.ts', '../src/a.ts', '../src/cli/t.ts'], root: [2, 3], version: '5.9.3', ...extra }));
    at('dist/tsconfig.build.tsbuildinfo', BUILT);
  };

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'run-cli-'));
    for (const dir of ['src/cli', 'dist/src/cli', 'node_modules/typescript/lib']) mkdirSync(join(root, dir), { recursive: true });
    for (const file of ['tsconfig.json', 'tsconfig.build.json', 'src/a.ts', 'src/cli/t.ts', 'dist/src/cli/t.js', 'node_modules/typescript/lib/lib.es5.d.ts']) {
      writeFileSync(join(root, file), '');
      at(file, BEFORE);
    }
    writeInfo();
    target = join(root, 'dist', 'src', 'cli', 't.js');
  });

  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('current: every source and both configs older than the build info, nothing pending', () => {
    expect(staleReason(root, target)).toBeNull();
  });

  it('a source, or a config, changed since the build', () => {
    at('src/a.ts', AFTER);
    expect(staleReason(root, target)).toBe(join('src', 'a.ts') + ' changed');
    at('src/a.ts', BEFORE);
    at('tsconfig.build.json', AFTER);
    expect(staleReason(root, target)).toBe('tsconfig.build.json changed');
  });

  it('what node_modules holds does not count (the lockfile decides it, not the build)', () => {
    at('node_modules/typescript/lib/lib.es5.d.ts', AFTER);
    expect(staleReason(root, target)).toBeNull();
  });

  it('no build yet, the command not built, a source gone, unreadable build info', () => {
    rmSync(join(root, 'dist', 'src', 'cli', 't.js'));
    expect(staleReason(root, target)).toBe(`${join('dist', 'src', 'cli', 't.js')} is not built`);
    writeFileSync(target, '');
    rmSync(join(root, 'src', 'a.ts'));
    expect(staleReason(root, target)).toBe(`${join('src', 'a.ts')} is gone`);
    writeFileSync(join(root, 'dist', 'tsconfig.build.tsbuildinfo'), '{"fileNames":');
    expect(staleReason(root, target)).toBe('unreadable build info');
    rmSync(join(root, 'dist', 'tsconfig.build.tsbuildinfo'));
    expect(staleReason(root, target)).toBe('no build yet');
  });

  it.each([
    ['errors', { semanticDiagnosticsPerFile: [[2, [{ code: 2322, messageText: 'Type string is not assignable to type number.' }]]] }],
    ['files left to emit by a type check (--noEmit)', { affectedFilesPendingEmit: [2, 3] }],
    ['an error flag', { errors: true }],
  ])('a build info recording %s is not current, however new it is', (_what, extra) => {
    writeInfo(extra);
    expect(staleReason(root, target)).toMatch(/had errors or left files to compile/);
  });
});

describe('run-cli: running the command', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'run-cli-run-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** The launcher running `script` (its stdout piped to the test), as `npm run` starts it. */
  function launch(script: string, args: string[] = []) {
    const target = join(dir, 'cli.js');
    writeFileSync(target, script);
    const launcher = `require(${JSON.stringify(join(__dirname, '..', '..', 'scripts', 'run-cli.js'))}).run(${JSON.stringify(target)}, ${JSON.stringify(args)})`;
    const child = spawn(process.execPath, ['-e', launcher], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
    const line = (text: string) =>
      new Promise<void>((resolve) => {
        const check = () => (out.includes(text) ? resolve() : setTimeout(check, 10));
        check();
      });
    return { child, exited, line, output: () => out };
  }

  it('passes the arguments, the output and the exit status through', async () => {
    const run = launch(`process.stdout.write(JSON.stringify(process.argv.slice(2)) + '\\n'); process.exit(3);`, ['--user', 'a b']);
    expect(await run.exited).toEqual({ code: 3, signal: null });
    expect(run.output()).toBe('["--user","a b"]\n');
  });

  it('a SIGINT sent to the launcher alone is left to the command (the terminal sends it to both); SIGTERM is passed on', async () => {
    const run = launch(`
      process.on('SIGINT', () => console.log('command got SIGINT'));
      process.on('SIGTERM', () => { console.log('command got SIGTERM'); process.exit(143); });
      console.log('ready');
      setInterval(() => {}, 1000);`);
    await run.line('ready');
    run.child.kill('SIGINT');
    run.child.kill('SIGTERM');
    expect(await run.exited).toEqual({ code: 143, signal: null });
    expect(run.output()).toBe('ready\ncommand got SIGTERM\n');
  });
});
