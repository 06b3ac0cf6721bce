/**
 * The import's report: one NDJSON line per line of the file that was not imported, `{line, id,
 * error, status, message}` (`error` the catalogue id a REST client would get for the same entity,
 * `id` the entity's id when it had one). Appended after each batch; a resumed import first cuts it
 * back to what the checkpoint counted, so a line is never reported twice.
 */
import { closeSync, openSync, ftruncateSync, writeSync } from 'node:fs';

export interface ReportLine {
  line: number;
  id: string | null;
  error: string;
  status: number;
  message: string;
}

export class ReportFile {
  private readonly fd: number;
  bytes: number;

  /** `keep`: the length to keep of an existing report (resume); 0 starts it anew. */
  constructor(
    readonly path: string,
    keep = 0,
  ) {
    this.fd = openSync(path, keep > 0 ? 'r+' : 'w');
    ftruncateSync(this.fd, keep);
    this.bytes = keep;
  }

  append(lines: ReportLine[]): void {
    if (lines.length === 0) return;
    const text = Buffer.from(lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
    writeSync(this.fd, text, 0, text.length, this.bytes);
    this.bytes += text.length;
  }

  close(): void {
    closeSync(this.fd);
  }
}
