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
import { MARK, hasStoredSources, hitsJson, splitAtMark } from '../store/hitsJson';

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
  // everything else as JSON.stringify writes it, the hits spliced in where MARK stands
  // (`hits` is not read: on a cached result that would build the hit objects)
  const frameResult: Record<string, unknown> = {};
  for (const key of Object.keys(result)) frameResult[key] = key === 'hits' ? MARK : (result as unknown as Record<string, unknown>)[key];
  const [head, tail] = splitAtMark(JSON.stringify({ ...message, result: frameResult }));
  return { head, hits, tail };
}

/** The parts as one text. */
export function joinParts({ head, hits, tail }: EnvelopeParts): string {
  if (hits === null) return head;
  return head + (typeof hits === 'string' ? hits : hits.text) + tail;
}

export const envelopeJson = (envelope: object): string => joinParts(envelopeParts(envelope));
