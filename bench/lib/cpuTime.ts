/**
 * CPU time of a server process, and the machine's steal, read from /proc (Linux): what a load run
 * cost the server per request. On a shared VM whose speed swings (steal), requests/s of runs taken
 * minutes apart differ by up to 2x; the server's CPU per request moves less with it, though it still moves.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

let ticksPerSecond: number | undefined;

function clockTicks(): number {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

/** User + system CPU seconds the process has used (all its threads), or NaN where /proc is missing. */
export function processCpuSeconds(pid: number): number {
  try {
    // fields after the ")" that ends the command name: state is field 3, utime 14, stime 15
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / clockTicks();
  } catch {
    return NaN;
  }
}

/** The machine's CPU counters: all time, and time stolen by the hypervisor (in ticks). */
export function machineTicks(): { total: number; steal: number } {
  try {
    const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    return { total: cpu.slice(0, 8).reduce((a, b) => a + b, 0), steal: cpu[7] ?? 0 };
  } catch {
    return { total: NaN, steal: NaN };
  }
}

export interface CpuCost {
  /** Server CPU microseconds per request answered. */
  cpuUsPerRequest: number;
  /** Share of the machine's CPU time stolen by the hypervisor during the run. */
  steal: number;
}

/** The process and its children (WORKERS: the primary and its workers), by pid. */
export function processTree(pid: number): number[] {
  try {
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
    return [pid, ...children.flatMap(processTree)];
  } catch {
    return [pid];
  }
}

/** CPU seconds of a process and its children (processTree). */
const treeCpuSeconds = (pids: number[]): number => pids.reduce((sum, pid) => sum + processCpuSeconds(pid), 0);

/**
 * Runs `load` (which reports how many requests it completed) and measures what it cost `pid` and its
 * children (a gateway with WORKERS > 1 serves from its workers).
 */
export function withCpuCost<T extends { requests: number }>(pid: number, load: () => T): T & CpuCost {
  const pids = processTree(pid);
  const cpu0 = treeCpuSeconds(pids);
  const m0 = machineTicks();
  const result = load();
  const cpu1 = treeCpuSeconds(pids);
  const m1 = machineTicks();
  return { ...result, cpuUsPerRequest: ((cpu1 - cpu0) * 1e6) / result.requests, steal: (m1.steal - m0.steal) / (m1.total - m0.total) };
}
