import { ProgressBar } from './progressBar';

const output = (isTTY: boolean) => {
  const chunks: string[] = [];
  return { chunks, out: { isTTY, write: (t: string) => chunks.push(t) } };
};

describe('ProgressBar', () => {
  it('draws the ratio, counts and rate', () => {
    let now = 0;
    const { out } = output(false);
    const bar = new ProgressBar(out, 'entities', 1000, 0, () => now);
    now = 2000;
    bar.update(450);
    expect(bar.line()).toBe(`entities  [${'#'.repeat(14)}${'.'.repeat(16)}]  45%  450/1000  225/s`);
  });

  it('redraws one line in place on a terminal, ending it when finished', () => {
    const { out, chunks } = output(true);
    const bar = new ProgressBar(out, 'API keys', 4, 0, () => 0);
    bar.update(2);
    bar.update(4);
    bar.finish();
    expect(chunks.every((c) => c.startsWith('\r'))).toBe(true);
    expect(chunks.slice(0, -1).some((c) => c.endsWith('\n'))).toBe(false);
    expect(chunks[chunks.length - 1].endsWith('\n')).toBe(true);
    expect(chunks[1]).toContain('100%  4/4');
  });

  it('prints plain lines elsewhere (logs), without repeating an unchanged one', () => {
    const { out, chunks } = output(false);
    const bar = new ProgressBar(out, 'entities', 0, 0, () => 0);
    bar.update(0);
    bar.update(0);
    bar.finish();
    expect(chunks).toEqual([`entities  [${'#'.repeat(30)}] 100%  0/0  0/s\n`]);
  });
});
