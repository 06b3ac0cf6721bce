/**
 * Every curl example of README.md answers what the README says. The gateway is started as
 * `npm start` starts it (development: the demo countries, a token printed on stdout), on a free port
 * in place of 7512; the README's shell blocks that call curl run in order in one bash session,
 * as a reader types them in one terminal (a block uses the `H`, `B` and `TOKEN` of earlier ones),
 * `export TOKEN=eyJ...` being the token the gateway printed. What each command must answer:
 * - a comment line `# → [status] [JSON]` after it: that HTTP status, and its answer (the envelope's
 *   `result`, or the whole JSON body) holds that JSON (objects: those keys; arrays: those items);
 * - other comment lines after it: lines of its output (a number ending a line may differ);
 * - else a success: HTTP 2xx, an envelope `status` 2xx, a GraphQL answer without `errors`;
 * - a ```json block right after the shell block (only a line such as "answers (`result`):" between
 *   them): the last command's answer, exactly; a plain ``` block starting `HTTP/1.1`: its status
 *   and those headers.
 * A block the test cannot run (it needs a setup no test can give) says so just before it, in an
 * HTML comment `<!-- readme-examples: not run: <why> -->`, listed as such by this test.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fencedBlocks, type FencedBlock } from '../support/markdown';
import { startGatewayProcess, type GatewayProcess } from '../support/processes';
import { shellCommands, type ShellCommand } from '../support/shellCommands';

const ROOT = join(__dirname, '..', '..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const NOT_RUN = /<!--\s*readme-examples:\s*not run:\s*(.+?)\s*-->\s*$/s;
const HTTP_MARK = /\n?<<<HTTP (\d{3})>>>\n/g;
const END_MARK = /\n?<<<END (\d+) (\d+)>>>\n/g;

interface Example {
  block: FencedBlock;
  commands: ShellCommand[];
  /** The ```json or HTTP block right after it, if any. */
  answer?: FencedBlock;
  notRun?: string;
}

function examples(): Example[] {
  const blocks = fencedBlocks(README);
  const found: Example[] = [];
  blocks.forEach((block, i) => {
    if (!['sh', 'bash', 'shell'].includes(block.lang) || !/(^|\s)curl\s/m.test(block.content)) return;
    const next = blocks[i + 1];
    const answer = next && ['json', ''].includes(next.lang) && next.before.split('\n').length <= 1 && next.before.length <= 80 ? next : undefined;
    found.push({ block, commands: shellCommands(block.content, block.line + 1), answer, notRun: NOT_RUN.exec(block.before)?.[1] });
  });
  return found;
}

interface Outcome {
  output: string;
  /** HTTP statuses of the curl calls the command made, in order. */
  statuses: number[];
  exitCode: number;
}

function runBash(script: string, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['--noprofile', '--norc'], { stdio: ['pipe', 'pipe', 'pipe'], env: { PATH: process.env.PATH, HOME: process.env.HOME } });
    let out = '';
    let err = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    child.on('error', reject);
    child.on('close', () => {
      clearTimeout(timer);
      resolve(err === '' ? out : `${out}\n<<<STDERR>>>\n${err}`);
    });
    child.stdin.end(script);
  });
}

/** The command's answer: the envelope's result, else the JSON body, else undefined. */
function answerOf(output: string): unknown {
  let body: any;
  try {
    body = JSON.parse(output);
  } catch {
    return undefined;
  }
  return body !== null && typeof body === 'object' && 'status' in body && 'result' in body ? body.result : body;
}

/** What in `actual` differs from `expected` (every key of an object, every item of an array), or []. */
function differences(expected: unknown, actual: unknown, path = '$'): string[] {
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) return [`${path}: expected ${expected.length} items, got ${JSON.stringify(actual)}`];
    return expected.flatMap((e, i) => differences(e, actual[i], `${path}[${i}]`));
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object') return [`${path}: expected an object, got ${JSON.stringify(actual)}`];
    return Object.entries(expected).flatMap(([k, v]) => differences(v, (actual as Record<string, unknown>)[k], `${path}.${k}`));
  }
  return Object.is(expected, actual) ? [] : [`${path}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`];
}

function checkCommand(command: ShellCommand, outcome: Outcome): string[] {
  const where = `README line ${command.line} (${command.text.split('\n')[0].slice(0, 80)})`;
  const problems: string[] = [];
  const body = answerOf(outcome.output);
  let statusGiven = false;
  for (const comment of command.comments) {
    const arrow = /^→\s*(\d{3})?\s*(.*)$/s.exec(comment);
    if (arrow) {
      if (arrow[1] !== undefined) {
        statusGiven = true;
        if (outcome.statuses.at(-1) !== Number(arrow[1])) problems.push(`${where}: HTTP ${outcome.statuses.at(-1)}, README says ${arrow[1]}\n${outcome.output}`);
      }
      if (arrow[2].trim() !== '') problems.push(...differences(JSON.parse(arrow[2]), body).map((d) => `${where}: ${d}`));
    } else {
      const expected = comment.trim();
      const pattern = new RegExp(`^${expected.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\d+(\.\d+)?$/, '[0-9.e+-]+')}$`, 'm');
      if (!pattern.test(outcome.output)) problems.push(`${where}: no output line "${expected}" in\n${outcome.output}`);
    }
  }
  if (!statusGiven && /(^|[\s|(])curl\s/.test(command.text)) {
    if (outcome.statuses.some((s) => s < 200 || s > 299)) problems.push(`${where}: HTTP ${outcome.statuses.join(', ')}\n${outcome.output}`);
    const parsed = (() => {
      try {
        return JSON.parse(outcome.output);
      } catch {
        return undefined;
      }
    })();
    if (parsed?.status !== undefined && (parsed.status < 200 || parsed.status > 299)) problems.push(`${where}: status ${parsed.status}\n${outcome.output}`);
    if (parsed?.errors !== undefined) problems.push(`${where}: GraphQL errors\n${outcome.output}`);
    if (outcome.statuses.length === 0 && outcome.output.trim() === '') problems.push(`${where}: no output (exit ${outcome.exitCode})`);
  }
  return problems;
}

/** The answer block: JSON, the last command's answer exactly; HTTP, its status line and headers. */
function checkAnswerBlock(example: Example, last: Outcome): string[] {
  const answer = example.answer!;
  const where = `README line ${answer.line}`;
  if (answer.lang === 'json') {
    const expected = JSON.parse(answer.content);
    const actual = answerOf(last.output);
    return JSON.stringify(actual) === JSON.stringify(expected) ? [] : [`${where}: README shows\n${JSON.stringify(expected)}\nthe gateway answers\n${JSON.stringify(actual)}`];
  }
  const [statusLine, ...headers] = answer.content.trim().split('\n');
  if (!statusLine.startsWith('HTTP/')) return [];
  const problems: string[] = [];
  const head = last.output.split(/\r?\n\r?\n/)[0].split(/\r?\n/);
  if (head[0].trim() !== statusLine.trim()) problems.push(`${where}: status line "${head[0]}", README says "${statusLine}"`);
  for (const header of headers.filter((h) => h.trim() !== '')) {
    const name = header.split(':')[0].toLowerCase();
    const got = head.find((h) => h.split(':')[0].toLowerCase() === name);
    if (got?.trim() !== header.trim()) problems.push(`${where}: header "${header}", the gateway sent "${got ?? '(none)'}"`);
  }
  return problems;
}

describe('README examples against a real gateway', () => {
  const all = examples();
  const runnable = all.filter((e) => e.notRun === undefined);
  let gateway: GatewayProcess;
  const outcomes = new Map<ShellCommand, Outcome>();
  let transcript = '';

  beforeAll(async () => {
    gateway = await startGatewayProcess({ env: { NODE_ENV: 'development', DEMO_DATA: 'true' } });
    const printed = await waitFor(() => gateway.logs.map((l) => (typeof l.text === 'string' ? /export TOKEN=(\S+)/.exec(l.text)?.[1] : undefined)).find((t) => t !== undefined));
    const commands = runnable.flatMap((e) => e.commands);
    const script = [
      // every curl call also tells its HTTP status, on a line of its own
      `curl() { command curl --max-time 30 -w '\\n<<<HTTP %{http_code}>>>\\n' "$@"; }`,
      ...commands.map((c, i) => {
        const text = /^export TOKEN=eyJ\.\.\.$/.test(c.text) ? `export TOKEN=${printed}` : c.text.replaceAll('localhost:7512', `127.0.0.1:${gateway.port}`);
        return `${text}\nprintf '\\n<<<END ${i} %s>>>\\n' "$?"`;
      }),
    ].join('\n');
    transcript = await runBash(script, 120_000);
    const ends = [...transcript.matchAll(END_MARK)];
    let from = 0;
    for (const end of ends) {
      const raw = transcript.slice(from, end.index);
      from = end.index + end[0].length;
      const statuses = [...raw.matchAll(HTTP_MARK)].map((m) => Number(m[1]));
      outcomes.set(commands[Number(end[1])], { output: raw.replace(HTTP_MARK, '\n').trim(), statuses, exitCode: Number(end[2]) });
    }
  }, 180_000);

  afterAll(() => gateway?.stop());

  it('finds the examples: the first request, the REST examples, highlighting, aggregations, CORS, metrics', () => {
    expect(runnable.length).toBeGreaterThanOrEqual(6);
    expect(runnable[0].commands.some((c) => c.text.startsWith('export TOKEN='))).toBe(true);
  });

  for (const example of all) {
    const title = `README line ${example.block.line} (${example.block.heading})`;
    if (example.notRun !== undefined) {
      it(`${title} — not run: ${example.notRun}`, () => {
        // listed, not silently skipped; what the marker says must be a reason
        expect(example.notRun!.length).toBeGreaterThan(10);
      });
      continue;
    }
    it(title, () => {
      const problems: string[] = [];
      for (const command of example.commands) {
        const outcome = outcomes.get(command);
        if (outcome === undefined) {
          problems.push(`README line ${command.line}: did not run\n${transcript.slice(-2000)}`);
          continue;
        }
        problems.push(...checkCommand(command, outcome));
      }
      const last = outcomes.get(example.commands.at(-1)!);
      if (example.answer !== undefined && last !== undefined) problems.push(...checkAnswerBlock(example, last));
      expect(problems).toEqual([]);
    });
  }
});

async function waitFor<T>(get: () => T | undefined, timeoutMs = 20_000): Promise<T> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await new Promise((r) => setTimeout(r, 50))) {
    const value = get();
    if (value !== undefined) return value;
  }
  throw new Error('the gateway printed no token');
}
