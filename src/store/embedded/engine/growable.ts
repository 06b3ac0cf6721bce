/**
 * Growable typed arrays: a typed array is replaced by a larger copy (capacity doubled, amortised
 * O(1) per append) when an index past its end is needed.
 */
export type TypedArray = Int32Array | Int16Array | Int8Array | Uint32Array | Uint16Array | Uint8Array | Float64Array | Float32Array;

/** `array` itself when it holds `minLength` elements, else a copy with at least that length (doubling). */
export function grow<T extends TypedArray>(array: T, minLength: number): T {
  if (minLength <= array.length) return array;
  let length = Math.max(16, array.length * 2);
  while (length < minLength) length *= 2;
  const out = new (array.constructor as new (n: number) => T)(length);
  out.set(array as never);
  return out;
}

/** A copy of the first `length` elements (a new, exactly sized array). */
export function trimmed<T extends TypedArray>(array: T, length: number): T {
  const out = new (array.constructor as new (n: number) => T)(length);
  out.set(array.subarray(0, length) as never);
  return out;
}

/**
 * Shared zero-length arrays, the initial state of growable arrays: nothing is allocated until the
 * first element is written (through `grow`), which keeps tiny indexes (the matcher's) cheap.
 */
export const EMPTY_INT32 = new Int32Array(0);
export const EMPTY_INT8 = new Int8Array(0);
export const EMPTY_UINT16 = new Uint16Array(0);
export const EMPTY_UINT8 = new Uint8Array(0);
export const EMPTY_FLOAT64 = new Float64Array(0);

/** An append-only list of 32-bit integers. */
export class IntList {
  data: Int32Array;
  length = 0;

  constructor(capacity = 16) {
    this.data = new Int32Array(capacity);
  }

  push(value: number): void {
    if (this.length === this.data.length) this.data = grow(this.data, this.length + 1);
    this.data[this.length++] = value;
  }

  /** The elements as a view (shares memory until the next push). */
  view(): Int32Array {
    return this.data.subarray(0, this.length);
  }
}
