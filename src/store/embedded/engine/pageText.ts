/**
 * A large page of hits kept as its JSON text (`[hit,...]`, exactly what JSON.stringify writes of
 * the hits), written hit by hit from the index as the page is fetched, into a few large buffers
 * outside the JavaScript heap: the stored `_source` bytes are copied in as stored, and no hit object
 * is made. The hit objects are made only if someone reads the result's `hits` (GraphQL, the API
 * key search); REST and raw WebSocket answers copy the bytes (HITS_BYTES, transport/envelopeJson.ts).
 *
 * Why: a page of 10,000 hits made as objects (each hit, its source's buffer, its sort values) lived
 * across the many slices of the search that fetched it and of the answer that wrote it, so every
 * young-generation collection of the garbage collector meanwhile copied them: pauses of 20 to 50 ms
 * of the whole process, under load, for every request in flight. Written as text, what a hit leaves
 * on the heap is short-lived (its id, its sort values) and dies before the next collection.
 *
 * Hand-written: the text is JSON.stringify's of the hit objects the engine would otherwise make
 * ({_id, _score[, _source][, sort]}); no library writes JSON around bytes it is given.
 */
import { hitHead } from '../../hitsJson';
import { HITS_BYTES, type Hit, type SearchResult } from '../../port';
import { storedSourceHit } from './storedSourceHit';

/** Pages of more hits than this are fetched as text (smaller ones as hit objects: the request cache keeps those). */
export const TEXT_PAGE_HITS = 100;

/** Buffers of this size at least (a hit larger than this gets a buffer of its own size). */
const CHUNK_BYTES = 256 * 1024;

/** A stored `_source` text: its length in bytes, and a copy of it into `out` at `at`. */
export interface SourceBytes {
  readonly length: number;
  copy(out: Buffer, at: number): void;
}

/** Where each hit is: its buffer, its start, its source's start (-1: no stored source text) and end, its end. */
const FIELDS = 5;

export class PageText {
  private readonly chunks: Buffer[] = [];
  private chunk: Buffer = Buffer.alloc(0);
  private end = 0;
  private bounds = new Int32Array(FIELDS * 64);
  private count = 0;
  /** Hits written from objects (a source not kept as JSON text): those objects, by position. */
  private objects: Map<number, Hit> | undefined;

  get length(): number {
    return this.count;
  }

  /** A hit `{_id, _score[, _source][, sort]}`: `source` the stored JSON text of its `_source`, or null for a hit without one. */
  add(id: string, score: number | null, source: SourceBytes | null, sort: unknown[] | undefined): void {
    const head = hitHead(id, score) + (source === null ? '' : ',"_source":');
    const tail = sort === undefined ? '}' : `,"sort":${JSON.stringify(sort)}}`;
    this.room(1 + 3 * (head.length + tail.length) + (source?.length ?? 0));
    this.separator();
    const at = this.slot();
    const chunk = this.chunk;
    this.bounds[at + 1] = this.end;
    this.end += chunk.write(head, this.end);
    if (source === null) this.bounds[at + 2] = -1;
    else {
      source.copy(chunk, this.end);
      this.bounds[at + 2] = this.end;
      this.end += source.length;
      this.bounds[at + 3] = this.end;
    }
    this.end += chunk.write(tail, this.end);
    this.bounds[at + 4] = this.end;
  }

  /** A hit of any other shape (JSON.stringify's text of it); reading the page's hits gives back this object. */
  addObject(hit: Hit): void {
    const text = JSON.stringify(hit);
    this.room(1 + 3 * text.length);
    this.separator();
    const at = this.slot();
    this.bounds[at + 1] = this.end;
    this.bounds[at + 2] = -1;
    this.end += this.chunk.write(text, this.end);
    this.bounds[at + 4] = this.end;
    (this.objects ??= new Map()).set(this.count - 1, hit);
  }

  /** The page's bytes, `[` to `]`, in order (the page is complete: nothing more may be added). */
  bytes(): Buffer[] {
    this.room(2);
    if (this.count === 0) this.chunk[this.end++] = 0x5b; // [
    this.chunk[this.end++] = 0x5d; // ]
    return this.chunks.map((c, i) => (i === this.chunks.length - 1 ? c.subarray(0, this.end) : c));
  }

  /**
   * The hit objects, as the engine makes them: a stored source stays its bytes until read
   * (storedSourceHit.ts), here a view of the page's buffer; the other members are read back from
   * their JSON text, which is what any answer of them writes.
   */
  hits(): Hit[] {
    const out: Hit[] = [];
    const b = this.bounds;
    for (let i = 0; i < this.count; i++) {
      const kept = this.objects?.get(i);
      if (kept !== undefined) {
        out.push(kept);
        continue;
      }
      const at = FIELDS * i;
      const chunk = this.chunks[b[at]];
      const [start, sourceStart, sourceEnd, end] = [b[at + 1], b[at + 2], b[at + 3], b[at + 4]];
      if (sourceStart < 0) {
        out.push(JSON.parse(chunk.toString('utf8', start, end)) as Hit);
        continue;
      }
      const rest = JSON.parse(`${chunk.toString('utf8', start, sourceStart)}null${chunk.toString('utf8', sourceEnd, end)}`) as Hit;
      const hit = storedSourceHit(rest._id, rest._score, chunk.subarray(sourceStart, sourceEnd));
      if (rest.sort !== undefined) hit.sort = rest.sort;
      out.push(hit);
    }
    return out;
  }

  /** `[` before the first hit, `,` before the others (room for it is made by the caller). */
  private separator(): void {
    this.chunk[this.end++] = this.count === 0 ? 0x5b : 0x2c;
  }

  /** The next hit's place in `bounds` (its buffer filled in). */
  private slot(): number {
    if (FIELDS * (this.count + 1) > this.bounds.length) {
      const grown = new Int32Array(this.bounds.length * 2);
      grown.set(this.bounds);
      this.bounds = grown;
    }
    const at = FIELDS * this.count++;
    this.bounds[at] = this.chunks.length - 1;
    return at;
  }

  /** At least `bytes` free in the current buffer: else a new one (what the last one did not use is left unused). */
  private room(bytes: number): void {
    if (this.end + bytes <= this.chunk.length) return;
    if (this.chunks.length > 0) this.chunks[this.chunks.length - 1] = this.chunk.subarray(0, this.end);
    this.chunk = Buffer.allocUnsafeSlow(Math.max(CHUNK_BYTES, bytes));
    this.chunks.push(this.chunk);
    this.end = 0;
  }
}

/**
 * A search result whose hits are `page`: REST and raw WebSocket answers copy its bytes
 * (HITS_BYTES); reading `hits` makes the hit objects once, and from then on the bytes are gone (the
 * hits read may be changed, and the answer must show them as changed).
 */
export function pageTextResult(page: PageText, rest: Omit<SearchResult, 'hits'>): SearchResult {
  let hits: Hit[] | undefined;
  let bytes: Buffer[] | undefined;
  const result = {} as SearchResult;
  Object.defineProperty(result, 'hits', {
    enumerable: true,
    configurable: true,
    get: () => (hits ??= page.hits()),
    set: (value: Hit[]) => {
      hits = value;
    },
  });
  Object.defineProperty(result, HITS_BYTES, {
    enumerable: false,
    get: () => (hits === undefined ? (bytes ??= page.bytes()) : undefined),
  });
  return Object.assign(result, rest);
}
