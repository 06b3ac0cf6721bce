/**
 * Preloaded into bench:abuse's gateway (NODE_OPTIONS=--require, so that src/ is untouched): every
 * 250 ms it appends "<Date.now()> <longest event-loop delay of the window in ms> <longest garbage
 * collection pause of the window in ms> <garbage collection time of the window in ms> <the longest
 * pause's kind: major, minor, incremental or weakcb> <the monotonic clock in µs, the clock of a CPU
 * profile's samples>" to
 * BENCH_LOOP_FILE. The delay is measured by perf_hooks.monitorEventLoopDelay (a libuv timer every
 * 10 ms: the delay recorded is the time between two of its turns, so a loop held for S ms shows about
 * S + 0-10 ms); the collections by a PerformanceObserver of 'gc' entries (the main thread's pauses:
 * V8's concurrent marking and sweeping are not counted). A stall longer than the window shows in the
 * window it ends in. It also ends the gateway if the bench that started it is gone (its parent
 * changed), so that a bench killed outright leaves no gateway behind.
 */
import { appendFileSync } from 'node:fs';
import { PerformanceObserver, constants, monitorEventLoopDelay, type NodeGCPerformanceDetail } from 'node:perf_hooks';

export const RESOLUTION_MS = 10;

const GC_KINDS: Record<number, string> = {
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weakcb',
};

const file = process.env.BENCH_LOOP_FILE;
if (file !== undefined && file !== '') {
  const delay = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  delay.enable();
  let gcMax = 0;
  let gcTotal = 0;
  let gcKind = '-';
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.duration > gcMax) gcKind = GC_KINDS[((entry as unknown as { detail: NodeGCPerformanceDetail }).detail).kind] ?? '?';
      gcMax = Math.max(gcMax, entry.duration);
      gcTotal += entry.duration;
    }
  }).observe({ entryTypes: ['gc'] });
  const parent = process.ppid;
  setInterval(() => {
    appendFileSync(file, `${Date.now()} ${(delay.max / 1e6).toFixed(1)} ${gcMax.toFixed(1)} ${gcTotal.toFixed(1)} ${gcKind} ${process.hrtime.bigint() / 1000n}\n`);
    delay.reset();
    gcMax = 0;
    gcTotal = 0;
    gcKind = '-';
    if (process.ppid !== parent) process.kill(process.pid, 'SIGKILL');
  }, 250).unref();
}
