/**
 * A stable sort that checks the search's budget as it goes (Array.prototype.sort cannot pause, and
 * the matches of a query in a field of 1,000,000 characters may be 170,000): a natural merge sort,
 * which merges the runs already in order (the matches of each clause come in text order, so a query
 * of k clauses is k runs: O(n log k)), and checks the budget every CHECK_EVERY + 1 elements moved.
 * Equal elements keep their order, as with Array.prototype.sort.
 */
import { Budget, CHECK_EVERY, Steps } from '../budget/budget';

export function* sortSteps<T>(items: T[], compare: (a: T, b: T) => number, budget: Budget): Steps<T[]> {
  const n = items.length;
  if (n < 2) return items;
  // the starts of the ascending runs, and n
  let runs: number[] = [0];
  for (let i = 1; i < n; i++) {
    if (compare(items[i - 1], items[i]) > 0) runs.push(i);
    if ((i & CHECK_EVERY) === CHECK_EVERY && budget.due()) yield;
  }
  runs.push(n);
  let from = items;
  let to: T[] = new Array<T>(n);
  let moved = 0;
  while (runs.length > 2) {
    const merged: number[] = [0];
    for (let r = 0; r < runs.length - 1; r += 2) {
      const lo = runs[r];
      const mid = runs[r + 1];
      const hi = r + 2 < runs.length ? runs[r + 2] : mid;
      let i = lo;
      let j = mid;
      let k = lo;
      while (i < mid && j < hi) {
        to[k++] = compare(from[j], from[i]) < 0 ? from[j++] : from[i++];
        if ((++moved & CHECK_EVERY) === 0 && budget.due()) yield;
      }
      while (i < mid) to[k++] = from[i++];
      while (j < hi) to[k++] = from[j++];
      merged.push(hi);
    }
    runs = merged;
    [from, to] = [to, from];
  }
  if (from !== items) for (let i = 0; i < n; i++) items[i] = from[i];
  return items;
}
