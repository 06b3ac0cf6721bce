/**
 * Log lines written together: the lines of one turn of the event loop leave in one write (at the
 * next turn), instead of one write system call per line (about 2 µs each here, as much as pino's
 * formatting of an access log line). Writes hold whole lines and at most ATOMIC_WRITE_BYTES, the
 * size a pipe writes at once: workers share the primary's stdout, and their lines never mix.
 */

/** PIPE_BUF on Linux: a write to a pipe of at most this many bytes is never interleaved with another process's. */
export const ATOMIC_WRITE_BYTES = 4096;

export class LineBatcher {
  private lines: string[] = [];
  private scheduled = false;

  /** @param out writes a chunk of whole lines at once (a synchronous destination) */
  constructor(private readonly out: (chunk: string) => void) {}

  /** pino's destination interface: one line, ending with "\n". */
  write(line: string): void {
    this.lines.push(line);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.flushLater);
    }
  }

  private readonly flushLater = (): void => {
    this.scheduled = false;
    this.flush();
  };

  /** Writes every pending line now (also at exit). */
  flush(): void {
    const lines = this.lines;
    if (lines.length === 0) return;
    this.lines = [];
    let chunk = '';
    let bytes = 0;
    for (const line of lines) {
      const n = Buffer.byteLength(line);
      if (bytes > 0 && bytes + n > ATOMIC_WRITE_BYTES) {
        this.out(chunk);
        chunk = '';
        bytes = 0;
      }
      chunk += line;
      bytes += n;
    }
    this.out(chunk);
  }
}
