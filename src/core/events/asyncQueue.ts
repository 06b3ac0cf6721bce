/**
 * Push in, pull out: turns listener callbacks into an AsyncIterableIterator (what GraphQL
 * subscriptions consume). `onClose` runs once, whether the consumer stops or the producer fails.
 */
export class AsyncQueue<T> implements AsyncIterableIterator<T> {
  private readonly buffer: T[] = [];
  private readonly waiting: { resolve: (r: IteratorResult<T>) => void; reject: (err: unknown) => void }[] = [];
  private failure: unknown = undefined;
  private done = false;

  constructor(
    private readonly onClose: () => void = () => {},
    private readonly maxBuffered = 10_000,
  ) {}

  push(value: T): void {
    if (this.done) return;
    const waiter = this.waiting.shift();
    if (waiter) waiter.resolve({ value, done: false });
    else if (this.buffer.length < this.maxBuffered) this.buffer.push(value);
    else this.fail(new Error('subscriber too slow: change buffer full'));
  }

  /** Ends the stream with an error, delivered after what is already buffered. */
  fail(err: unknown): void {
    if (this.done) return;
    this.failure = err;
    this.finish();
    for (const waiter of this.waiting.splice(0)) waiter.reject(err);
  }

  next(): Promise<IteratorResult<T>> {
    if (this.buffer.length > 0) return Promise.resolve({ value: this.buffer.shift() as T, done: false });
    if (this.failure !== undefined) {
      const err = this.failure;
      this.failure = undefined;
      return Promise.reject(err);
    }
    if (this.done) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve, reject) => this.waiting.push({ resolve, reject }));
  }

  return(): Promise<IteratorResult<T>> {
    this.buffer.length = 0;
    this.failure = undefined;
    this.finish();
    for (const waiter of this.waiting.splice(0)) waiter.resolve({ value: undefined, done: true });
    return Promise.resolve({ value: undefined, done: true });
  }

  throw(err: unknown): Promise<IteratorResult<T>> {
    this.fail(err);
    return this.next();
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  private finish(): void {
    if (!this.done) {
      this.done = true;
      this.onClose();
    }
  }
}
