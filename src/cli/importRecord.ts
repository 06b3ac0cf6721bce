/** What the import's readers (NDJSON, JSON array, CSV) give: one record of the file at a time, with where it ends. */

/** Where reading starts: the beginning (offset 0, line 1), or a checkpoint's position. */
export interface ReadPosition {
  /** Byte offset in the file. */
  offset: number;
  /** The 1-based line number at that offset. */
  line: number;
}

export interface SourceRecord {
  /** The 1-based line of the file where the record is (CSV: where it ends). */
  line: number;
  /** Where the next record's reading may start: the byte offset just after this record, and its line. */
  next: ReadPosition;
  /** The parsed value (not necessarily an object: the core says what is wrong with it). */
  value?: unknown;
  /** Why the record could not be read (not JSON, a CSV row of the wrong length), when it could not. */
  error?: string;
}

/** A reader: byte chunks in (from `start`), records out, a chunk's worth at a time. */
export type RecordReader = (chunks: AsyncIterable<Buffer>, start: ReadPosition) => AsyncGenerator<SourceRecord[]>;

/** The file is not of its format as a whole (not an array, an unclosed quote...): nothing after this point can be read. */
export class FormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FormatError';
  }
}

/** A JSON.parse message, with the text it failed on shortened. */
export function parseFailure(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return `not JSON: ${message.length > 200 ? `${message.slice(0, 200)}…` : message}`;
}
