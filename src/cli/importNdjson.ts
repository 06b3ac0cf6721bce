/**
 * NDJSON (one JSON value a line) read as a stream, line by line, with each line's byte offset: a
 * resumed import starts at the byte after the last committed line. Written by hand because
 * node:readline, which splits lines well, does not tell where in the file a line ends. Blank
 * lines are skipped (counted); `\r\n` ends a line as `\n` does; the last line needs no newline.
 */
import { parseFailure, type ReadPosition, type RecordReader, type SourceRecord } from './importRecord';

const NEWLINE = 0x0a;
const CR = 0x0d;

function record(bytes: Buffer, from: number, to: number, line: number, next: ReadPosition): SourceRecord | null {
  let end = to;
  if (end > from && bytes[end - 1] === CR) end--;
  const text = bytes.toString('utf8', from, end);
  if (text.trim() === '') return null;
  try {
    return { line, next, value: JSON.parse(text) };
  } catch (err) {
    return { line, next, error: parseFailure(err) };
  }
}

export const readNdjson: RecordReader = async function* (chunks, start) {
  const carry: Buffer[] = []; // a line begun in earlier chunks (joined once its end comes: a long line is copied once)
  let offset = start.offset; // of the first byte of `carry`, or of the chunk when there is none
  let line = start.line;
  for await (const chunk of chunks) {
    if (carry.length > 0 && chunk.indexOf(NEWLINE) === -1) {
      carry.push(chunk);
      continue;
    }
    const bytes: Buffer = carry.length === 0 ? chunk : Buffer.concat([...carry, chunk]);
    carry.length = 0;
    const out: SourceRecord[] = [];
    let from = 0;
    for (let nl = bytes.indexOf(NEWLINE); nl !== -1; nl = bytes.indexOf(NEWLINE, from)) {
      const r = record(bytes, from, nl, line, { offset: offset + nl + 1, line: line + 1 });
      if (r !== null) out.push(r);
      line++;
      from = nl + 1;
    }
    if (from < bytes.length) carry.push(bytes.subarray(from));
    offset += from;
    if (out.length > 0) yield out;
  }
  if (carry.length > 0) {
    const last = Buffer.concat(carry);
    const r = record(last, 0, last.length, line, { offset: offset + last.length, line });
    if (r !== null) yield [r];
  }
};
