/**
 * The first `k` items in an order, within the search's time budget: a bounded binary heap holding
 * the best `k` so far (its root the worst of them), then emptied worst first into the output.
 * O(n log k), with a look at the clock every CHECK_EVERY + 1 steps, so that ranking 100,000 distinct
 * terms never holds the event loop (Array.prototype.sort cannot pause).
 */
import { Steps } from '../budget/budget';
import { checkpoint } from './run';
import { AggContext } from './types';

export function* selectTop<T>(items: readonly T[], k: number, compare: (a: T, b: T) => number, ctx: AggContext): Steps<T[]> {
  const heap: T[] = [];
  // worse(a, b): a comes after b in the order (a belongs nearer the root)
  const worse = (a: T, b: T) => compare(a, b) > 0;
  const siftDown = (from: number) => {
    let i = from;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let top = i;
      if (l < heap.length && worse(heap[l], heap[top])) top = l;
      if (r < heap.length && worse(heap[r], heap[top])) top = r;
      if (top === i) return;
      [heap[i], heap[top]] = [heap[top], heap[i]];
      i = top;
    }
  };
  let steps = 0;
  for (const item of items) {
    if (checkpoint(steps++) && ctx.budget.due()) yield;
    if (heap.length < k) {
      heap.push(item);
      let i = heap.length - 1;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!worse(heap[i], heap[parent])) break;
        [heap[i], heap[parent]] = [heap[parent], heap[i]];
        i = parent;
      }
    } else if (k > 0 && worse(heap[0], item)) {
      heap[0] = item;
      siftDown(0);
    }
  }
  const out = new Array<T>(heap.length);
  for (let i = heap.length - 1; i >= 0; i--) {
    if (checkpoint(steps++) && ctx.budget.due()) yield;
    out[i] = heap[0];
    const last = heap.pop() as T;
    if (heap.length > 0) {
      heap[0] = last;
      siftDown(0);
    }
  }
  return out;
}
