/**
 * A JSON array read as a stream, one element at a time, with each element's byte offset (a
 * resumed import starts after the last committed element). Written by hand: no JSON library in the
 * dependencies parses a stream incrementally (stream-json would), and splitting a top-level array
 * needs only its brackets, commas and strings: a byte loop that skips strings and counts nesting
 * hands each element's bytes to JSON.parse. An element that is not JSON is that element's error;
 * a file that is not an array is a FormatError.
 */
import { FormatError, parseFailure, type RecordReader, type SourceRecord } from './importRecord';

const enum State {
  /** Before the opening bracket. */
  Before,
  /** After `[` or `,`: an element (or `]` right after `[`) comes next. */
  Value,
  /** Inside an element. */
  InValue,
  /** After an element: `,` or `]`. */
  After,
  /** After the closing bracket: only whitespace. */
  Done,
}

const isSpace = (b: number) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;
const NEWLINE = 0x0a;
const BOM = [0xef, 0xbb, 0xbf];

export const readJsonArray: RecordReader = async function* (chunks, start) {
  let state = start.offset === 0 ? State.Before : State.After;
  let offset = start.offset; // of the chunk's first byte
  let line = start.line;
  let depth = 0;
  let inString = false;
  let escaped = false;
  let afterComma = false;
  let pieces: Buffer[] = []; // the element begun in earlier chunks
  let elementLine = 0;
  const where = () => `line ${line}`;
  for await (const chunk of chunks) {
    const out: SourceRecord[] = [];
    let elementStart = state === State.InValue ? 0 : -1;
    const emit = (end: number) => {
      const bytes = pieces.length === 0 ? chunk.subarray(elementStart, end) : Buffer.concat([...pieces, chunk.subarray(elementStart, end)]);
      pieces = [];
      const next = { offset: offset + end, line };
      let text = bytes.toString('utf8');
      text = text.trimEnd();
      try {
        out.push({ line: elementLine, next, value: JSON.parse(text) });
      } catch (err) {
        out.push({ line: elementLine, next, error: parseFailure(err) });
      }
      state = State.After;
      elementStart = -1;
    };
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i];
      switch (state) {
        case State.Before:
          if (b === 0x5b) state = State.Value;
          else if (offset + i < BOM.length && b === BOM[offset + i]) continue; // a byte order mark
          else if (!isSpace(b)) throw new FormatError(`${where()}: expected a JSON array ("[") but found "${String.fromCharCode(b)}"`);
          break;
        case State.Value:
          if (b === 0x5d && !afterComma) state = State.Done;
          else if (!isSpace(b)) {
            if (b === 0x2c || b === 0x5d) throw new FormatError(`${where()}: expected an element but found "${String.fromCharCode(b)}"`);
            state = State.InValue;
            elementStart = i;
            elementLine = line;
            afterComma = false;
            i--; // the element's first byte is read as part of it
          }
          break;
        case State.InValue:
          if (inString) {
            if (escaped) escaped = false;
            else if (b === 0x5c) escaped = true;
            else if (b === 0x22) inString = false;
          } else if (b === 0x22) inString = true;
          else if (b === 0x7b || b === 0x5b) depth++;
          else if ((b === 0x7d || b === 0x5d) && depth > 0) {
            depth--;
            if (depth === 0) emit(i + 1);
          } else if (depth === 0 && (b === 0x2c || b === 0x5d)) {
            emit(i); // a scalar element ends at the comma or bracket
            i--;
          }
          break;
        case State.After:
          if (b === 0x2c) {
            state = State.Value;
            afterComma = true;
          } else if (b === 0x5d) state = State.Done;
          else if (!isSpace(b)) throw new FormatError(`${where()}: expected "," or "]" after an element but found "${String.fromCharCode(b)}"`);
          break;
        case State.Done:
          if (!isSpace(b)) throw new FormatError(`${where()}: unexpected "${String.fromCharCode(b)}" after the end of the array`);
          break;
      }
      if (b === NEWLINE) line++;
    }
    if (state === State.InValue) pieces.push(chunk.subarray(elementStart));
    offset += chunk.length;
    if (out.length > 0) yield out;
  }
  const end = state as State;
  if (end !== State.Done) throw new FormatError(end === State.Before ? 'the file is empty: expected a JSON array' : `${where()}: the array is not closed ("]" missing at the end of the file)`);
};
