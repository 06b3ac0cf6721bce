/**
 * Memory held by a structure: process.memoryUsage() after a forced full GC (node --expose-gc),
 * before and after building it. heapUsed is the JavaScript heap; arrayBuffers is the memory of
 * typed arrays, which lives outside that heap and is reported separately so nothing is hidden.
 */
export interface MemoryUse {
  heapUsed: number;
  arrayBuffers: number;
}

/** A full garbage collection (twice: what the first frees may free more). */
export function collect(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('run node with --expose-gc');
  gc();
  gc();
}

export function snapshot(): MemoryUse {
  collect();
  const m = process.memoryUsage();
  return { heapUsed: m.heapUsed, arrayBuffers: m.arrayBuffers };
}

export function since(before: MemoryUse): MemoryUse {
  const now = snapshot();
  return { heapUsed: now.heapUsed - before.heapUsed, arrayBuffers: now.arrayBuffers - before.arrayBuffers };
}

export const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
