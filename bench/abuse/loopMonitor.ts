/**
 * Preloaded into bench:abuse's gateway (NODE_OPTIONS=--require, so that src/ is untouched): every
 * 250 ms it appends "<Date.now()> <longest event-loop delay of the window in ms>" to BENCH_LOOP_FILE,
 * measured by perf_hooks.monitorEventLoopDelay (a libuv timer every 10 ms: the delay recorded is the
 * time between two of its turns, so a loop held for S ms shows about S + 0-10 ms). A stall longer
 * than the window shows in the window it ends in. It also ends the gateway if the bench that started
 * it is gone (its parent changed), so that a bench killed outright leaves no gateway behind.
 */
import { appendFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

export const RESOLUTION_MS = 10;

const file = process.env.BENCH_LOOP_FILE;
if (file !== undefined && file !== '') {
  const delay = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  delay.enable();
  const parent = process.ppid;
  setInterval(() => {
    appendFileSync(file, `${Date.now()} ${(delay.max / 1e6).toFixed(1)}\n`);
    delay.reset();
    if (process.ppid !== parent) process.kill(process.pid, 'SIGKILL');
  }, 250).unref();
}
