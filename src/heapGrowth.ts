/**
 * How far the JavaScript heap may grow past what it held after a full garbage collection before
 * the next one (V8's --heap-growing-percent). V8 lets a heap grow up to 4 times (its factor on a
 * machine of several GB), so a gateway whose live heap is 30 MB (the index is in typed arrays,
 * outside that heap) held up to 90 MB of garbage while it took writes: the objects of bulk
 * requests that lived long enough to be promoted. At 100% (twice what was live) it collects once
 * about 30 MB of garbage has come. Measured at 1,000,000 bench:scale entities: the old space at
 * the last answer of the load 90 MB (V8's own factor), 54 MB (100%), 42 MB (30%); the gateway's
 * CPU for a bulk load 2% more at 100%, 7% at 30%; searches no slower (README "Memory and
 * sizing"). A `--heap-growing-percent` given to node is kept.
 */
import { setFlagsFromString } from 'node:v8';

export const HEAP_GROWING_PERCENT = 100;

/** Sets V8's heap growing percent unless node was given one; returns the percent in force (undefined: node's own). */
export function limitHeapGrowth(execArgv: readonly string[] = process.execArgv): number | undefined {
  const given = execArgv.find((arg) => /^--heap[-_]growing[-_]percent(=|$)/.test(arg));
  if (given !== undefined) return given.includes('=') ? Number(given.split('=')[1]) : undefined;
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  return HEAP_GROWING_PERCENT;
}
