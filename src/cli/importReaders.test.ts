/** The import's readers: records, their lines and offsets, whatever the chunking; resuming at an offset. */
import { csvReader, readCsvHeader } from './importCsv';
import { readJsonArray } from './importJsonArray';
import { readNdjson } from './importNdjson';
import { FormatError, type RecordReader, type SourceRecord } from './importRecord';

async function* chunksOf(bytes: Buffer, size: number): AsyncGenerator<Buffer> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

async function read(reader: RecordReader, text: string | Buffer, size = 1 << 16, start = { offset: 0, line: 1 }): Promise<SourceRecord[]> {
  const bytes = typeof text === 'string' ? Buffer.from(text) : text;
  const out: SourceRecord[] = [];
  for await (const records of reader(chunksOf(bytes.subarray(start.offset), size), start)) out.push(...records);
  return out;
}

/** Records read at every chunk size from 1 byte are those read at once. */
async function sameAtEveryChunking(reader: RecordReader, text: string): Promise<SourceRecord[]> {
  const whole = await read(reader, text);
  for (const size of [1, 2, 3, 7, 16]) expect(await read(reader, text, size)).toEqual(whole);
  return whole;
}

/** Resuming after each record gives the records after it. */
async function resumesAfterEach(reader: RecordReader, text: string, whole: SourceRecord[]): Promise<void> {
  for (let i = 0; i < whole.length; i++) expect(await read(reader, text, 5, whole[i].next)).toEqual(whole.slice(i + 1));
}

describe('readNdjson', () => {
  const text = '{"a":1}\r\n\n  \n{"b":"é\\n"}\n[1]\nnot json\n{"c":3}';

  it('reads each line with its line number and the offset after it; blank lines skipped; CRLF; no newline at the end', async () => {
    const records = await sameAtEveryChunking(readNdjson, text);
    expect(records.map((r) => [r.line, r.value ?? r.error?.slice(0, 8)])).toEqual([
      [1, { a: 1 }],
      [4, { b: 'é\n' }],
      [5, [1]],
      [6, 'not JSON'],
      [7, { c: 3 }],
    ]);
    const bytes = Buffer.from(text);
    expect(records[0].next).toEqual({ offset: 9, line: 2 });
    expect(records[1].next).toEqual({ offset: bytes.indexOf('[1]'), line: 5 });
    expect(records[4].next).toEqual({ offset: bytes.length, line: 7 });
    await resumesAfterEach(readNdjson, text, records);
  });

  it('reads nothing from an empty file', async () => {
    expect(await read(readNdjson, '')).toEqual([]);
    expect(await read(readNdjson, '\n\n')).toEqual([]);
  });
});

describe('readJsonArray', () => {
  const text = '\uFEFF[\n {"a": "x]}\\"{["},\n  {"b": [1, {"c": 2}]} , 3, "s,]",\n{"bad": } ,\n[] ]\n';

  it('reads each element with its line and the offset after it, strings and nesting skipped, whatever the chunking', async () => {
    const records = await sameAtEveryChunking(readJsonArray, text);
    expect(records.map((r) => [r.line, r.value ?? r.error?.slice(0, 8)])).toEqual([
      [2, { a: 'x]}"{[' }],
      [3, { b: [1, { c: 2 }] }],
      [3, 3],
      [3, 's,]'],
      [4, 'not JSON'],
      [5, []],
    ]);
    await resumesAfterEach(readJsonArray, text, records);
  });

  it('reads an empty array', async () => {
    expect(await read(readJsonArray, ' [ ] ')).toEqual([]);
  });

  it.each([
    ['{"a": 1}', 'expected a JSON array'],
    ['', 'the file is empty'],
    ['[{"a": 1}', 'not closed'],
    ['[{"a": 1} {"b": 2}]', 'expected "," or "]"'],
    ['[1,,2]', 'expected an element'],
    ['[1,]', 'expected an element'],
    ['[1] x', 'after the end of the array'],
  ])('refuses %j as a whole (%s)', async (bad, message) => {
    await expect(read(readJsonArray, bad)).rejects.toThrow(FormatError);
    await expect(read(readJsonArray, bad)).rejects.toThrow(message);
  });
});

describe('CSV', () => {
  const text = '\uFEFFcode,name,note\nFR,France,\n"DE","Germany","two\nlines"\n\nIT,Italy\nES,"Spain, ""España""",x\n';

  it('reads rows as objects keyed by the header: strings, empty cells left out, a row of another length refused', async () => {
    const records = await sameAtEveryChunking(csvReader(), text);
    expect(records.map((r) => [r.line, r.value ?? r.error])).toEqual([
      [2, { code: 'FR', name: 'France' }],
      [4, { code: 'DE', name: 'Germany', note: 'two\nlines' }],
      [6, "2 values for the header's 3 columns"],
      [7, { code: 'ES', name: 'Spain, "España"', note: 'x' }],
    ]);
    expect(records[3].next.offset).toBe(Buffer.byteLength(text));
  });

  it('resumes after any row with the header read again from the start', async () => {
    const records = await read(csvReader(), text);
    const header = await readCsvHeader(chunksOf(Buffer.from(text), 4));
    expect(header).toEqual(['code', 'name', 'note']);
    for (let i = 0; i < records.length; i++) expect(await read(csvReader(header), text, 5, records[i].next)).toEqual(records.slice(i + 1));
  });

  it('keeps a column named __proto__ as a plain field', async () => {
    const [record] = await read(csvReader(), '__proto__,name\nx,y\n');
    expect(Object.keys(record.value as object)).toEqual(['__proto__', 'name']);
    expect(Object.getPrototypeOf(record.value)).toBe(Object.prototype);
  });

  it.each([
    ['', 'the file is empty'],
    ['a,,b\n1,2,3\n', "column 2 has no name"],
    ['a,b,a\n1,2,3\n', 'names "a" twice'],
    ['a,b\n"1,2\n', 'Quote Not Closed'],
  ])('refuses %j as a whole (%s)', async (bad, message) => {
    await expect(read(csvReader(), bad)).rejects.toThrow(FormatError);
    await expect(read(csvReader(), bad)).rejects.toThrow(message);
  });
});
