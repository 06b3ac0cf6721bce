/**
 * Query latency: every query of a workload timed alone (process.hrtime), after a warm-up round;
 * percentiles over all the samples.
 */
export interface Latency {
  p50: number;
  p99: number;
  mean: number;
  samples: number;
}

/** The middle value (of an even count, the upper of the two middle ones). */
export const median = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Ratios taken round by round (two sides measured seconds apart): their median, and each as "1.23x". */
export function roundRatios(ratios: readonly number[]): { median: number; each: string } {
  return { median: median(ratios), each: ratios.map((r) => `${r.toFixed(2)}x`).join(', ') };
}

/** The value below which a fraction `q` of the sorted samples lie (nearest rank). */
export function percentile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil(q * sorted.length) - 1;
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank))];
}

/**
 * Like `measure`, for several searches timed in turn: each round runs every search over the `count`
 * queries, one search after the other (the one going first rotating from round to round), so that
 * their ratios are not decided by this machine's speed swinging between rows measured seconds apart.
 * One Latency per search.
 */
export function measureInterleaved(count: number, rounds: number, runs: readonly ((i: number) => unknown)[]): Latency[] {
  for (const run of runs) for (let i = 0; i < count; i++) run(i);
  const samples = runs.map((): number[] => []);
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < runs.length; k++) {
      const which = (k + r) % runs.length;
      for (let i = 0; i < count; i++) {
        const start = process.hrtime.bigint();
        runs[which](i);
        samples[which].push(Number(process.hrtime.bigint() - start) / 1e6);
      }
    }
  }
  return samples.map(summarize);
}

export function summarize(samplesMs: number[]): Latency {
  const sorted = [...samplesMs].sort((a, b) => a - b);
  const mean = sorted.reduce((a, b) => a + b, 0) / Math.max(1, sorted.length);
  return { p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99), mean, samples: sorted.length };
}

/** Run `run(i)` for i in [0, count) `rounds` times after one warm-up round; latencies in milliseconds. */
export function measure(count: number, rounds: number, run: (i: number) => unknown): Latency {
  for (let i = 0; i < count; i++) run(i);
  const samples: number[] = [];
  for (let r = 0; r < rounds; r++) {
    for (let i = 0; i < count; i++) {
      const start = process.hrtime.bigint();
      run(i);
      samples.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
  }
  return summarize(samples);
}
