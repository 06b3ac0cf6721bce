import { ATOMIC_WRITE_BYTES, LineBatcher } from './lineBatcher';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('LineBatcher', () => {
  it("writes a turn's lines together at the next turn, in order", async () => {
    const writes: string[] = [];
    const batcher = new LineBatcher((chunk) => writes.push(chunk));
    batcher.write('a\n');
    batcher.write('b\n');
    expect(writes).toEqual([]);
    await nextTurn();
    expect(writes).toEqual(['a\nb\n']);
    batcher.write('c\n');
    batcher.flush();
    expect(writes).toEqual(['a\nb\n', 'c\n']);
    await nextTurn();
    expect(writes).toHaveLength(2);
  });

  it('cuts writes at whole lines of at most ATOMIC_WRITE_BYTES bytes (a longer line alone)', () => {
    const writes: string[] = [];
    const batcher = new LineBatcher((chunk) => writes.push(chunk));
    const line = `${'é'.repeat(500)}\n`; // 1001 bytes
    for (let i = 0; i < 10; i++) batcher.write(line);
    const long = `${'x'.repeat(ATOMIC_WRITE_BYTES * 2)}\n`;
    batcher.write(long);
    batcher.flush();
    expect(writes.join('')).toBe(line.repeat(10) + long);
    for (const chunk of writes.slice(0, -1)) {
      expect(Buffer.byteLength(chunk)).toBeLessThanOrEqual(ATOMIC_WRITE_BYTES);
      expect(chunk.endsWith('\n')).toBe(true);
    }
    expect(writes.at(-1)).toBe(long);
    expect(writes.length).toBe(4);
  });
});
