#!/usr/bin/env node
/**
 * node scripts/run-cli.js <name> [args...] — runs dist/src/cli/<name>.js (`npm run token`, `migrate`,
 * `import`), compiling first only when dist/ is not current, so that a call on a built tree starts
 * at once and prints nothing but what the command prints.
 *
 * Plain JavaScript, not compiled: it has to run before the build. Current means: the last
 * `tsc -p tsconfig.build.json` (incremental: `npm run build`, `npm start` and this script all run it)
 * left its build info (dist/tsconfig.build.tsbuildinfo) with no error and no emit pending, no source
 * file it compiled (nor tsconfig.json, tsconfig.build.json) changed since, and the command's
 * compiled file exists. Deciding this by reading the build info takes milliseconds where asking tsc
 * (loading TypeScript, hashing every file) takes seconds. When in doubt, it builds: tsc decides.
 * The compiler's output (errors) goes to stderr, never stdout.
 */
'use strict';
const { spawn, spawnSync } = require('node:child_process');
const { existsSync, readFileSync, rmSync, statSync, utimesSync } = require('node:fs');
const { dirname, join, relative, resolve } = require('node:path');

const ROOT = resolve(__dirname, '..');
const BUILD_CONFIG = 'tsconfig.build.json';
const BUILD_INFO = join('dist', 'tsconfig.build.tsbuildinfo');
const NAME = /^[a-z][a-z0-9-]*$/;

function mtimeMs(file) {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return undefined;
  }
}

/** Whether tsbuildinfo records an unfinished build: errors, or files whose output is pending. */
function recordsUnfinishedBuild(info) {
  if (info.errors === true || info.checkPending === true) return true;
  for (const key of ['semanticDiagnosticsPerFile', 'syntacticDiagnosticsPerFile', 'emitDiagnosticsPerFile', 'affectedFilesPendingEmit', 'pendingEmit']) {
    const value = info[key];
    if (Array.isArray(value) ? value.length > 0 : value !== undefined && value !== false) return true;
  }
  return false;
}

/**
 * Why dist/ must be built before `target` (a file under dist/) can run, or null when it is current.
 * `root` is the repository; exported for the tests.
 */
function staleReason(root, target) {
  const buildInfoFile = join(root, BUILD_INFO);
  const builtAt = mtimeMs(buildInfoFile);
  if (builtAt === undefined) return 'no build yet';
  if (!existsSync(target)) return `${relative(root, target)} is not built`;
  let info;
  try {
    info = JSON.parse(readFileSync(buildInfoFile, 'utf8'));
  } catch {
    return 'unreadable build info';
  }
  if (!Array.isArray(info.fileNames)) return 'unreadable build info';
  if (recordsUnfinishedBuild(info)) return 'the last build (or type check) had errors or left files to compile';
  const infoDir = dirname(buildInfoFile);
  const sources = info.fileNames.filter((f) => !f.split('/').includes('node_modules')).map((f) => resolve(infoDir, f));
  for (const file of [join(root, 'tsconfig.json'), join(root, BUILD_CONFIG), ...sources]) {
    const changed = mtimeMs(file);
    if (changed === undefined) return `${relative(root, file)} is gone`;
    if (changed > builtAt) return `${relative(root, file)} changed`;
  }
  return null;
}

/**
 * Compiles (tsc's output to stderr). The build info's time is then the time this build started:
 * tsc leaves it as it was when no output changed (a file saved without a change), and a file saved
 * while tsc ran is then newer than the build.
 */
function build(target) {
  const buildInfo = join(ROOT, BUILD_INFO);
  // an incremental build does not write again an output that was deleted: build everything
  if (!existsSync(target)) rmSync(buildInfo, { force: true });
  const started = new Date();
  const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  const result = spawnSync(process.execPath, [tsc, '-p', BUILD_CONFIG], { cwd: ROOT, stdio: ['ignore', 2, 2] });
  if (result.status !== 0) return result.status ?? 1;
  if (existsSync(buildInfo)) utimesSync(buildInfo, started, started);
  return 0;
}

function main(argv) {
  const [name, ...args] = argv;
  if (name === undefined || !NAME.test(name)) {
    process.stderr.write('usage: node scripts/run-cli.js <command> [args...]  (a file of src/cli/)\n');
    return 2;
  }
  if (!existsSync(join(ROOT, 'src', 'cli', `${name}.ts`))) {
    process.stderr.write(`no command "${name}" (src/cli/${name}.ts)\n`);
    return 2;
  }
  const target = join(ROOT, 'dist', 'src', 'cli', `${name}.js`);
  const reason = staleReason(ROOT, target);
  if (reason !== null) {
    process.stderr.write(`building dist/ first (${reason})\n`);
    const status = build(target);
    if (status !== 0) return status;
  }
  run(target, args);
  return undefined;
}

/**
 * Runs the command and ends as it ends. Ctrl-C reaches the command from the terminal (one process
 * group): this process only waits for it (`npm run import` stops cleanly on the first Ctrl-C and at
 * once on the second). A SIGTERM or SIGHUP sent to this process is passed on.
 */
function run(target, args) {
  const child = spawn(process.execPath, [target, ...args], { stdio: 'inherit' });
  process.on('SIGINT', () => {});
  for (const signal of ['SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => {
    if (signal === null) process.exit(code ?? 1);
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  });
}

module.exports = { staleReason, recordsUnfinishedBuild, run };

if (require.main === module) {
  const status = main(process.argv.slice(2));
  if (status !== undefined) process.exitCode = status;
}
