/**
 * CSV with a header row, read as a stream by csv-parse: each later row becomes an object keyed by
 * the header's names. Every value is a string (CSV has no types: the store maps a numeric string
 * into a number field that exists, as Elasticsearch does); an empty cell is no field at all. A row
 * with more or fewer cells than the header is that row's error. A resumed import reads the header
 * again from the file's start, then rows from the checkpoint's offset.
 */
import { Readable } from 'node:stream';
import { parse, type Info } from 'csv-parse';
import { FormatError, type ReadPosition, type RecordReader, type SourceRecord } from './importRecord';

const OPTIONS = { bom: true, info: true, relax_column_count: true, skip_empty_lines: true } as const;

/** A header's names: none empty, none twice. */
export function checkHeader(header: string[]): string[] {
  header.forEach((name, i) => {
    if (name.trim() === '') throw new FormatError(`line 1: the header's column ${i + 1} has no name`);
    if (header.indexOf(name) !== i) throw new FormatError(`line 1: the header names "${name}" twice`);
  });
  return header;
}

function toRecord(cells: string[], header: string[], info: Info, start: ReadPosition, headerRead: boolean): SourceRecord {
  // (info counts from where this parser started: the file's start, or the checkpoint)
  const line = (headerRead ? start.line - 1 : 0) + info.lines;
  const next = { offset: start.offset + info.bytes, line: line + 1 };
  if (cells.length !== header.length) return { line, next, error: `${cells.length} values for the header's ${header.length} columns` };
  const value: Record<string, string> = {};
  for (let i = 0; i < cells.length; i++) if (cells[i] !== '') Object.defineProperty(value, header[i], { value: cells[i], enumerable: true, writable: true, configurable: true });
  return { line, next, value };
}

async function* rows(chunks: AsyncIterable<Buffer>): AsyncGenerator<{ record: string[]; info: Info }> {
  const parser = Readable.from(chunks).pipe(parse(OPTIONS));
  try {
    for await (const row of parser) yield row as { record: string[]; info: Info };
  } catch (err) {
    if (err instanceof Error && 'code' in err && String(err.code).startsWith('CSV_')) throw new FormatError(err.message);
    throw err;
  } finally {
    parser.destroy();
  }
}

/** The header row of the CSV read from `chunks` (its first record). */
export async function readCsvHeader(chunks: AsyncIterable<Buffer>): Promise<string[]> {
  for await (const { record } of rows(chunks)) return checkHeader(record);
  throw new FormatError('the file is empty: expected a header row');
}

/**
 * From the file's start (`header` undefined: the first row is the header), or from a checkpoint
 * with the header read before (readCsvHeader).
 */
export function csvReader(header?: string[]): RecordReader {
  return async function* (chunks, start) {
    let names = header;
    const out: SourceRecord[] = [];
    for await (const { record, info } of rows(chunks)) {
      if (names === undefined) {
        names = checkHeader(record);
        continue;
      }
      out.push(toRecord(record, names, info, start, header !== undefined));
      if (out.length >= 256) yield out.splice(0);
    }
    if (names === undefined) throw new FormatError('the file is empty: expected a header row');
    if (out.length > 0) yield out;
  };
}
