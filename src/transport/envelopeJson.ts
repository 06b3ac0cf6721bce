/**
 * The JSON text of an envelope (REST body, raw WebSocket message), exactly what JSON.stringify
 * gives, except that search hits are copied in as text when the store has it: a cached page's
 * whole `hits` text (HITS_JSON), or each hit's stored `_source` text (SOURCE_JSON); and so are the
 * `_source`s of a bulk write's `successes` (SOURCE_TEXT: the JSON written to the store). Sources
 * are then neither parsed nor serialized again.
 *
 * Strings, not Buffers, except a cached page's bytes: Node writes a string body together with the
 * headers, from its own stack storage up to 16 KB, where a Buffer answer of more than 4 KB is a
 * fresh ArrayBuffer per answer (3.5 µs to allocate on this machine, and garbage the collector must
 * finalize). A cached page is the same text answer after answer, so its bytes are encoded once; a
 * page of more than SLICED_PAGE_HITS hits is made into bytes in slices (envelopeInSlices).
 */
import { HITS_BYTES, HITS_JSON, SOURCE_TEXT, type Hit, type JsonText, type SearchResult } from '../store/port';
import { MARK, PageBytes, hasStoredSources, hitsJson, splitAtMark } from '../store/hitsJson';
import { Slice, getDefaultSliceMs, runSliced, type Steps } from '../scheduler/scheduler';

/**
 * An envelope's JSON as the text around its hits: `head + hits + tail`. `hits` is the shared text
 * of a cached page, or the text written for this answer; null when the envelope has no stored hit
 * text (then `head` is the whole JSON and `tail` is empty).
 */
export interface EnvelopeParts {
  head: string;
  hits: JsonText | string | null;
  tail: string;
}

export function envelopeParts(envelope: object): EnvelopeParts {
  const message = envelope as Record<string, unknown>;
  const result = message.result as SearchResult | null | undefined;
  if (typeof result !== 'object' || result === null) return { head: JSON.stringify(message), hits: null, tail: '' };
  const bytes = result[HITS_BYTES];
  let hits: JsonText | string | undefined = bytes === undefined ? result[HITS_JSON] : Buffer.concat(bytes).toString('utf8');
  if (hits === undefined) {
    if (!hasStoredSources(result.hits)) {
      const { successes } = result as { successes?: unknown };
      if (!hasSourceTexts(successes)) return { head: JSON.stringify(message), hits: null, tail: '' };
      const [head, tail] = aroundHits(message, result, 'successes');
      return { head, hits: successesJson(successes), tail };
    }
    hits = hitsJson(result.hits);
  }
  const [head, tail] = aroundHits(message, result);
  return { head, hits, tail };
}

/**
 * Everything but the hits (or the list `key`) as JSON.stringify writes it, their place marked
 * (`hits` is not read: on a cached result that would build the hit objects), as the text before
 * and after them.
 */
function aroundHits(message: Record<string, unknown>, result: SearchResult, key = 'hits'): [string, string] {
  const frameResult: Record<string, unknown> = {};
  for (const k of Object.keys(result)) frameResult[k] = k === key ? MARK : (result as unknown as Record<string, unknown>)[k];
  return splitAtMark(JSON.stringify({ ...message, result: frameResult }));
}

type Success = { _id: string; _source: unknown; status: number; [SOURCE_TEXT]?: string };

/** Whether a list of written entities holds the JSON text of any `_source`. */
function hasSourceTexts(list: unknown): list is Success[] {
  if (!Array.isArray(list) || list.length === 0) return false;
  const first: unknown = list[0];
  return typeof first === 'object' && first !== null && typeof (first as Success)[SOURCE_TEXT] === 'string';
}

/** `[success,...]` as JSON.stringify writes it, each `{_id, _source, status}` with its `_source` text copied in. */
function successesJson(list: readonly Success[]): string {
  let text = '[';
  for (let i = 0; i < list.length; i++) {
    const item = list[i];
    if (i > 0) text += ',';
    const source = typeof item === 'object' && item !== null ? item[SOURCE_TEXT] : undefined;
    if (typeof source === 'string' && typeof item._id === 'string' && Number.isInteger(item.status) && isSuccessShape(item)) {
      text += `{"_id":${JSON.stringify(item._id)},"_source":${source},"status":${item.status}}`;
    } else {
      text += JSON.stringify(item) ?? 'null';
    }
  }
  return `${text}]`;
}

/** Exactly the keys `_id`, `_source`, `status`, in that order (then JSON.stringify writes them so). */
function isSuccessShape(item: object): boolean {
  const keys = Object.keys(item);
  return keys.length === 3 && keys[0] === '_id' && keys[1] === '_source' && keys[2] === 'status';
}

/** Pages of more hits are made into bytes in slices (envelopeInSlices); smaller ones at once (about 0.5 ms at most). */
export const SLICED_PAGE_HITS = 100;

/** Hits made into bytes between two looks at the clock. */
const HITS_PER_CHECK = 8;

/**
 * An envelope holding a page of more than SLICED_PAGE_HITS hits (size may be 10,000) made into
 * UTF-8 bytes in slices of SEARCH_SLICE_MS, by the scheduler that runs the paused searches
 * (src/scheduler/scheduler.ts): a plain search, a health check or a ping is answered between two
 * slices. Made at once, a page of 10,000 hits (9 MB) held the loop for 100 to 300 ms; made 500 hits
 * per turn, each turn still took 5 to 20 ms under load. Stored sources are copied as the bytes they
 * are stored as, never decoded; other hits are JSON.stringify'd one by one, which is the text
 * JSON.stringify gives of the whole page. Returns false, and calls nothing, for any other envelope
 * (written at once, see envelopeParts); else `done` gets the bytes in order (at once when they
 * were made within a first slice), or null when the envelope cannot be serialized.
 */
export function envelopeInSlices(envelope: object, done: (chunks: Buffer[] | null) => void): boolean {
  const message = envelope as Record<string, unknown>;
  const result = message.result as SearchResult | null | undefined;
  if (typeof result !== 'object' || result === null || result[HITS_JSON] !== undefined) return false;
  const bytes = result[HITS_BYTES];
  if (bytes !== undefined) {
    // a large page the store wrote as text: copied as it is
    let chunks: Buffer[] | null = null;
    try {
      const [head, tail] = aroundHits(message, result);
      chunks = [Buffer.from(head), ...bytes, Buffer.from(tail)];
    } catch {
      // (the rest of the envelope cannot be serialized: done(null))
    }
    done(chunks);
    return true;
  }
  const hits = result.hits;
  if (!Array.isArray(hits) || hits.length <= SLICED_PAGE_HITS) return false;
  let chunks: Buffer[] | Promise<Buffer[]>;
  try {
    const [head, tail] = aroundHits(message, result);
    const slice = new Slice(getDefaultSliceMs());
    chunks = runSliced(pageSteps(hits, head, tail, slice), slice);
  } catch {
    done(null);
    return true;
  }
  if (!(chunks instanceof Promise)) done(chunks);
  else {
    chunks.then(done, () => done(null)).catch((err: unknown) =>
      // what `done` throws, thrown as from a setImmediate of its own (as answerSoon does)
      setImmediate(() => {
        throw err;
      }),
    );
  }
  return true;
}

/** The page's bytes: `head`, its hits a slice's worth at a time (one buffer per slice), `]` and `tail`. */
function* pageSteps(hits: readonly Hit[], head: string, tail: string, slice: Slice): Steps<Buffer[]> {
  const chunks: Buffer[] = [Buffer.from(head)];
  const bytes = new PageBytes();
  for (let i = 0; i < hits.length; i++) {
    bytes.add(hits, i);
    if (i % HITS_PER_CHECK === HITS_PER_CHECK - 1 && i + 1 < hits.length && slice.over()) {
      chunks.push(bytes.take());
      yield;
    }
  }
  chunks.push(bytes.take(), Buffer.from(`]${tail}`));
  return chunks;
}

/** The parts as one text. */
export function joinParts({ head, hits, tail }: EnvelopeParts): string {
  if (hits === null) return head;
  return head + (typeof hits === 'string' ? hits : hits.text) + tail;
}

export const envelopeJson = (envelope: object): string => joinParts(envelopeParts(envelope));
