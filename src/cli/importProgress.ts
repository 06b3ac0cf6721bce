/**
 * The import's progress on stderr, drawn by cli-progress: a bar of the bytes read of the file's size
 * with the entities written and their rate, redrawn in place on a terminal; a plain line every
 * `plainEveryMs` otherwise (CI logs, files). Standard input has no size: no bar, the rest alike.
 */
import { SingleBar } from 'cli-progress';

export interface ProgressStream {
  write(text: string): unknown;
  isTTY?: boolean;
}

const mib = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MiB`;

export class ImportProgress {
  private readonly bar: SingleBar;
  private readonly startedAt = Date.now();
  private readonly startedWith: number;

  constructor(stream: ProgressStream, size: number | null, done: { bytes: number; written: number }, plainEveryMs = 2000) {
    const format = size === null ? '{read} read | {written} written | {rate} docs/s' : '{bar} {percentage}% | {read} of {size} | {written} written | {rate} docs/s';
    this.bar = new SingleBar({
      format,
      stream: stream as NodeJS.WritableStream,
      noTTYOutput: true,
      notTTYSchedule: plainEveryMs,
      barsize: 30,
      hideCursor: false,
      gracefulExit: false, // the import stops on SIGINT itself, after its batch
    });
    this.startedWith = done.written;
    this.bar.start(size ?? 0, done.bytes, this.payload(done.bytes, done.written, size));
  }

  private payload(bytes: number, written: number, size: number | null) {
    const seconds = Math.max(0.001, (Date.now() - this.startedAt) / 1000);
    return { read: mib(bytes), size: size === null ? '' : mib(size), written, rate: Math.round((written - this.startedWith) / seconds) };
  }

  update(bytes: number, written: number): void {
    this.bar.update(bytes, this.payload(bytes, written, this.bar.getTotal() || null));
  }

  stop(): void {
    this.bar.stop();
  }
}
