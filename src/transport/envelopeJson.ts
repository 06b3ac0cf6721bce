/**
 * The JSON text of an envelope (REST body, raw WebSocket message), exactly what JSON.stringify
 * gives, except that search hits are copied in as text when the store has it: a cached page's
 * whole `hits` text (HITS_JSON), or each hit's stored `_source` text (SOURCE_JSON). Sources are
 * then neither parsed nor serialized again.
 *
 * Strings, not Buffers, except a cached page's bytes: Node writes a string body together with the
 * headers, from its own stack storage up to 16 KB, where a Buffer answer of more than 4 KB is a
 * fresh ArrayBuffer per answer (3.5 µs to allocate on this machine, and garbage the collector must
 * finalize). A cached page is the same text answer after answer, so its bytes are encoded once.
 */
import { HITS_JSON, type JsonText, type SearchResult } from '../store/port';
import { MARK, hasStoredSources, hitsBytes, hitsJson, splitAtMark } from '../store/hitsJson';

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
  let hits: JsonText | string | undefined = result[HITS_JSON];
  if (hits === undefined) {
    if (!hasStoredSources(result.hits)) return { head: JSON.stringify(message), hits: null, tail: '' };
    hits = hitsJson(result.hits);
  }
  const [head, tail] = aroundHits(message, result);
  return { head, hits, tail };
}

/**
 * Everything but the hits as JSON.stringify writes it, the hits' place marked (`hits` is not read:
 * on a cached result that would build the hit objects), as the text before and after them.
 */
function aroundHits(message: Record<string, unknown>, result: SearchResult): [string, string] {
  const frameResult: Record<string, unknown> = {};
  for (const key of Object.keys(result)) frameResult[key] = key === 'hits' ? MARK : (result as unknown as Record<string, unknown>)[key];
  return splitAtMark(JSON.stringify({ ...message, result: frameResult }));
}

/** Hits of a large page made into bytes per turn of the event loop. */
export const HITS_PER_TURN = 500;

/**
 * An envelope holding a page of more than HITS_PER_TURN stored hits (size may be 10,000) as UTF-8
 * bytes, made HITS_PER_TURN hits per turn of the event loop (setImmediate): made at once, a page of
 * 10,000 hits (9 MB) held the loop for 100 to 300 ms, encoding included. Stored sources are copied
 * as the bytes they are stored as, never decoded. Returns false, and calls nothing, for any other
 * envelope (written at once, see envelopeParts); else `done` gets the bytes in order, or null when
 * the envelope cannot be serialized.
 */
export function envelopeInTurns(envelope: object, done: (chunks: Buffer[] | null) => void): boolean {
  const message = envelope as Record<string, unknown>;
  const result = message.result as SearchResult | null | undefined;
  if (typeof result !== 'object' || result === null || result[HITS_JSON] !== undefined) return false;
  const hits = result.hits;
  if (!Array.isArray(hits) || hits.length <= HITS_PER_TURN || !hasStoredSources(hits)) return false;
  let head: string;
  let tail: string;
  try {
    [head, tail] = aroundHits(message, result);
  } catch {
    done(null);
    return true;
  }
  const chunks: Buffer[] = [Buffer.from(head)];
  const next = (from: number): void => {
    try {
      const to = Math.min(hits.length, from + HITS_PER_TURN);
      chunks.push(hitsBytes(hits, from, to));
      if (to < hits.length) return void setImmediate(next, to);
      chunks.push(Buffer.from(`]${tail}`));
    } catch {
      return done(null);
    }
    done(chunks);
  };
  next(0);
  return true;
}

/** The parts as one text. */
export function joinParts({ head, hits, tail }: EnvelopeParts): string {
  if (hits === null) return head;
  return head + (typeof hits === 'string' ? hits : hits.text) + tail;
}

export const envelopeJson = (envelope: object): string => joinParts(envelopeParts(envelope));
