import { AsyncQueue } from './asyncQueue';

describe('AsyncQueue', () => {
  it('delivers pushed values in order, to waiting and later readers alike', async () => {
    const q = new AsyncQueue<number>();
    const first = q.next();
    q.push(1);
    q.push(2);
    expect(await first).toEqual({ value: 1, done: false });
    expect(await q.next()).toEqual({ value: 2, done: false });
  });

  it('runs onClose once when the consumer returns, and ends the stream', async () => {
    const onClose = jest.fn();
    const q = new AsyncQueue<number>(onClose);
    const pending = q.next();
    await q.return();
    await q.return();
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(await pending).toEqual({ value: undefined, done: true });
    q.push(3);
    expect(await q.next()).toEqual({ value: undefined, done: true });
  });

  it('delivers what is buffered before a failure, then the failure, then the end', async () => {
    const onClose = jest.fn();
    const q = new AsyncQueue<number>(onClose);
    q.push(1);
    q.fail(new Error('revoked'));
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(await q.next()).toEqual({ value: 1, done: false });
    await expect(q.next()).rejects.toThrow('revoked');
    expect(await q.next()).toEqual({ value: undefined, done: true });
  });

  it('fails a slow consumer instead of growing without bound', async () => {
    const q = new AsyncQueue<number>(() => {}, 2);
    q.push(1);
    q.push(2);
    q.push(3);
    expect(await q.next()).toEqual({ value: 1, done: false });
    expect(await q.next()).toEqual({ value: 2, done: false });
    await expect(q.next()).rejects.toThrow('too slow');
  });

  it('works with for await', async () => {
    const q = new AsyncQueue<string>();
    q.push('a');
    q.push('b');
    const seen: string[] = [];
    for await (const v of q) {
      seen.push(v);
      if (seen.length === 2) break;
    }
    expect(seen).toEqual(['a', 'b']);
  });
});
