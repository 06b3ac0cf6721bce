/**
 * A small progress bar for the migration, on stderr: redrawn in place on a terminal
 * (`keys      [#########...........]  45%  450/1000  1200/s`), one plain line per update otherwise
 * (CI logs, files).
 */
export interface ProgressOutput {
  write(text: string): unknown;
  isTTY?: boolean;
}

const WIDTH = 30;

export class ProgressBar {
  private readonly startedAt: number;
  private readonly startDone: number;
  private lastLine = '';

  constructor(
    private readonly out: ProgressOutput,
    private readonly label: string,
    private readonly total: number,
    private done = 0,
    private readonly now: () => number = Date.now,
  ) {
    this.startedAt = now();
    this.startDone = done;
  }

  /** `done` so far (absolute). */
  update(done: number): void {
    this.done = done;
    this.render(false);
  }

  finish(): void {
    this.render(true);
  }

  line(): string {
    const ratio = this.total === 0 ? 1 : Math.min(1, this.done / this.total);
    const filled = Math.round(ratio * WIDTH);
    const seconds = Math.max(0.001, (this.now() - this.startedAt) / 1000);
    const rate = Math.round((this.done - this.startDone) / seconds);
    const percent = `${Math.floor(ratio * 100)}%`.padStart(4);
    return `${this.label.padEnd(9)} [${'#'.repeat(filled)}${'.'.repeat(WIDTH - filled)}] ${percent}  ${this.done}/${this.total}  ${rate}/s`;
  }

  private render(final: boolean): void {
    const line = this.line();
    if (this.out.isTTY) {
      this.out.write(`\r${line}${' '.repeat(Math.max(0, this.lastLine.length - line.length))}${final ? '\n' : ''}`);
    } else if (line !== this.lastLine) {
      this.out.write(`${line}\n`);
    }
    this.lastLine = line;
  }
}
