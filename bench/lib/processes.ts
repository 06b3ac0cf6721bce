/** Child processes for benchmarks: each server (and load generator) gets its own process and core. */
import { spawn, type ChildProcess } from 'node:child_process';

export interface Child {
  process: ChildProcess;
  port: number;
  stop(): Promise<void>;
}

/** Starts `node script` and resolves once it prints its port ("listening 1234", or a pino line with "port"). */
export function startNode(script: string, env: Record<string, string> = {}, timeoutMs = 60_000): Promise<Child> {
  const child = spawn(process.execPath, [script], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let buffer = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${script} did not start within ${timeoutMs} ms`));
    }, timeoutMs);
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const match = /listening (\d+)/.exec(buffer) ?? /"port":(\d+)/.exec(buffer);
      if (match) {
        clearTimeout(timer);
        child.stdout!.removeAllListeners('data');
        child.stdout!.resume();
        resolve({
          process: child,
          port: Number(match[1]),
          stop: () =>
            new Promise((done) => {
              if (child.exitCode !== null) return done();
              child.once('exit', () => done());
              child.kill('SIGTERM');
            }),
        });
      }
    });
  });
}
