/**
 * The JSON text of an envelope (REST body, raw WebSocket message), exactly what JSON.stringify
 * gives, except that search hits are copied in as text when the store has it: a cached page's
 * whole `hits` text (HITS_JSON), or each hit's stored `_source` text (SOURCE_JSON). Sources are
 * then neither parsed nor serialized again.
 *
 * A string, never a Buffer: Node writes a string body together with the headers, from its own
 * stack storage up to 16 KB, where a Buffer answer of more than 4 KB is a fresh ArrayBuffer per
 * answer (3.5 µs to allocate on this machine, and garbage the collector must finalize).
 */
import { HITS_JSON, type SearchResult } from '../store/port';
import { MARK, hasStoredSources, hitsJson, splitAtMark } from '../store/hitsJson';

export function envelopeJson(envelope: object): string {
  const message = envelope as Record<string, unknown>;
  const result = message.result as SearchResult | null | undefined;
  if (typeof result !== 'object' || result === null) return JSON.stringify(message);
  let hits = result[HITS_JSON];
  if (hits === undefined) {
    if (!hasStoredSources(result.hits)) return JSON.stringify(message);
    hits = hitsJson(result.hits);
  }
  // everything else as JSON.stringify writes it, the hits spliced in where MARK stands
  // (`hits` is not read: on a cached result that would build the hit objects)
  const frameResult: Record<string, unknown> = {};
  for (const key of Object.keys(result)) frameResult[key] = key === 'hits' ? MARK : (result as unknown as Record<string, unknown>)[key];
  const [before, after] = splitAtMark(JSON.stringify({ ...message, result: frameResult }));
  return before + hits + after;
}
