/**
 * `npm run token`, run as a user runs it: `TOKEN=$(npm run token -- --user alice)` captures the token
 * and nothing else (npm's banner goes to stderr: .npmrc), the token is signed with the server's
 * secret, and on a built tree a second call does not compile again. The first call builds dist/
 * when it is not current (a fresh clone: it is not), so it may take a minute.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jwtVerify } from 'jose';

const ROOT = join(__dirname, '..', '..');
const SECRET = 'npm-scripts-test-secret-0123456789-abcdefghij';
const JWT_LINE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\n$/;

function npmRun(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', ...args], { cwd: ROOT, env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('npm run token', () => {
  let dataDir: string;
  let env: Record<string, string>;

  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'npm-token-'));
    env = { AUTH_SECRET: SECRET, DATA_DIR: dataDir };
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('prints exactly one JWT line on stdout, signed with the secret, with the claims asked for', async () => {
    const run = await npmRun(['token', '--', '--user', 'alice', '--tenant', 'acme', '--roles', 'writer,reader'], env);
    expect(run.stderr).not.toMatch(/error TS\d+/);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(JWT_LINE);
    // npm's banner is still written, on stderr
    expect(run.stderr).toContain('> entity-gateway@');
    const { payload } = await jwtVerify(run.stdout.trim(), new TextEncoder().encode(SECRET));
    expect(payload).toMatchObject({ sub: 'alice', tenantId: 'acme', roles: ['writer', 'reader'] });
  }, 240_000);

  it('on a built tree, a second call does not compile again', async () => {
    const buildInfo = join(ROOT, 'dist', 'tsconfig.build.tsbuildinfo');
    const compiled = join(ROOT, 'dist', 'src', 'cli', 'token.js');
    // the call before left dist/ current (it built it if it had to); this one must not build
    await npmRun(['token', '--', '--user', 'warm-up'], env);
    const before = [statSync(buildInfo).mtimeMs, statSync(compiled).mtimeMs];
    const run = await npmRun(['token', '--', '--user', 'alice'], env);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(JWT_LINE);
    expect(run.stderr).not.toContain('building dist/');
    expect([statSync(buildInfo).mtimeMs, statSync(compiled).mtimeMs]).toEqual(before);
  }, 240_000);

  it('bad usage: exit status 2, the usage on stderr, no token on stdout', async () => {
    const run = await npmRun(['token', '--', '--expires', '1h'], env);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('usage: npm run token -- --user <id>');
    expect(run.stdout).not.toMatch(/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{20,}/);
  }, 240_000);
});
