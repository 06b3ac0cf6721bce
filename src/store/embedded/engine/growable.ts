/**
 * Growable typed arrays: a typed array is replaced by a larger copy (capacity doubled, amortised
 * O(1) per append) when an index past its end is needed.
 *
 * A large array (MAPPED_MIN_BYTES or more) is a mapping of its own, not a block of the C library's
 * heap: its memory is a WebAssembly.Memory's (pages mapped for it alone, used through an ordinary
 * ArrayBuffer, read and written as fast as any), and it goes back to the system when the array is
 * collected. Growth by copying into the heap left the arrays grown out of as holes that glibc's
 * malloc keeps resident (it gives back only the top of its heap; above 128 KB it maps a block of its
 * own only until it has freed one of that size): about 200 MB of them after a bulk load of 1,000,000
 * entities. The pages of a mapping never written (the room ahead of need) are not resident either.
 * Each array starts a different number of cache lines into its mapping: mappings all begin on a
 * 64 KB boundary, and arrays written side by side at the same index (a document's fields) would
 * otherwise fall in the same cache sets (3x slower writes, measured). Where no mapping can be made
 * (no WebAssembly, as under `node --jitless`; address space limited, as by `ulimit -v`; or some
 * 13,000 mappings live, each reserving about 10 GB of address space), the array is an ordinary one,
 * and so is every array after it: V8 runs up to three full garbage collections before it gives up
 * on a mapping (about half a second each time, measured under `ulimit -v`), which a retry on every
 * large array would pay again and again.
 */
export type TypedArray = Int32Array | Int16Array | Int8Array | Uint32Array | Uint16Array | Uint8Array | Float64Array | Float32Array;

type TypedArrayClass<T> = { new (length: number): T; new (buffer: ArrayBuffer, byteOffset: number, length: number): T; readonly BYTES_PER_ELEMENT: number };

/** Arrays of at least this many bytes are mappings of their own (see above). */
export const MAPPED_MIN_BYTES = 256 * 1024;
const WASM_PAGE = 65_536;
const CACHE_LINE = 64;
/** How many cache lines into its mapping the next array starts (cycles through 0..62). */
let stagger = 0;
/** The buffers of the arrays `allocate` mapped (for isMapped). */
const mapped = new WeakSet<ArrayBuffer>();
/** WebAssembly.Memory (TypeScript's lib here declares no WebAssembly), undefined where there is none. */
const Memory = (globalThis as unknown as { WebAssembly?: { Memory: new (descriptor: { initial: number }) => { buffer: ArrayBuffer } } }).WebAssembly?.Memory;
/** False once a mapping could not be made (or there is no WebAssembly): large arrays are ordinary ones from then on. */
let mapping = Memory !== undefined;

/** Whether large arrays are still made as mappings of their own (false after a failed one): for diagnostics and tests. */
export const mappingLargeArrays = (): boolean => mapping;

/** A new array of `length` zeros of `type`: a mapping of its own when large (see above). */
export function allocate<T extends TypedArray>(type: TypedArrayClass<T>, length: number): T {
  const bytes = length * type.BYTES_PER_ELEMENT;
  if (bytes < MAPPED_MIN_BYTES || !mapping || Memory === undefined) return new type(length);
  stagger = (stagger + 1) % 63;
  const offset = stagger * CACHE_LINE;
  let buffer: ArrayBuffer;
  try {
    buffer = new Memory({ initial: Math.ceil((offset + bytes) / WASM_PAGE) }).buffer;
  } catch {
    mapping = false;
    return new type(length);
  }
  mapped.add(buffer);
  return new type(buffer, offset, length);
}

/** A Buffer of `length` zero bytes, from `allocate`. */
export function allocateBuffer(length: number): Buffer {
  const bytes = allocate(Uint8Array, length);
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
}

/** Whether `array` is (a view of) a mapping of its own made by `allocate`: for tests and diagnostics. */
export function isMapped(array: TypedArray): boolean {
  return mapped.has(array.buffer as ArrayBuffer);
}

/** `array` itself when it holds `minLength` elements, else a copy with at least that length (doubling). */
export function grow<T extends TypedArray>(array: T, minLength: number): T {
  if (minLength <= array.length) return array;
  let length = Math.max(16, array.length * 2);
  while (length < minLength) length *= 2;
  const out = allocate(array.constructor as TypedArrayClass<T>, length);
  out.set(array as never);
  return out;
}

/** A copy of the first `length` elements (a new, exactly sized array). */
export function trimmed<T extends TypedArray>(array: T, length: number): T {
  const out = allocate(array.constructor as TypedArrayClass<T>, length);
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
    this.data = allocate(Int32Array, capacity);
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
