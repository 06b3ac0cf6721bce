/**
 * The JSON text of a page of hits, as JSON.stringify would write it, with each stored `_source`
 * text (SOURCE_JSON) copied in rather than parsed and serialized again.
 */
import { randomBytes } from 'node:crypto';
import { isPlainObject as isObject } from './embedded/engine/json';
import { SOURCE_JSON, type Hit, type JsonText } from './port';

/** Stands in for what is spliced in later; never part of an answer, so never in one. */
export const MARK = `\u0000${randomBytes(12).toString('hex')}`;
export const MARK_JSON = JSON.stringify(MARK);

/** JSON text holding MARK once, as the text before it and the text after it. */
export function splitAtMark(json: string): [string, string] {
  const at = json.indexOf(MARK_JSON);
  return [json.slice(0, at), json.slice(at + MARK_JSON.length)];
}

/** Whether any hit still holds its stored source text. */
export function hasStoredSources(hits: unknown): hits is Hit[] {
  if (!Array.isArray(hits)) return false;
  for (const hit of hits) if (isObject(hit) && (hit as unknown as Hit)[SOURCE_JSON] !== undefined) return true;
  return false;
}

/** Text answered many times; its UTF-8 bytes are encoded on first use and kept. */
export class SharedJsonText implements JsonText {
  #utf8: Buffer | undefined;

  constructor(readonly text: string) {}

  /** Its own memory, not a slice of Node's shared 8 KB pool, which a small page kept in the cache would keep alive. */
  get utf8(): Buffer {
    if (this.#utf8 === undefined) {
      this.#utf8 = Buffer.allocUnsafeSlow(Buffer.byteLength(this.text));
      this.#utf8.write(this.text, 'utf8');
    }
    return this.#utf8;
  }
}

const SIMPLE_ID = /^[\w.:@-]*$/;

/** `{"_id":...,"_score":...`, as JSON.stringify writes a hit's first two members (ids are mostly plain, scores finite numbers or null). */
export function hitHead(id: unknown, score: unknown): string {
  const idText = typeof id === 'string' && SIMPLE_ID.test(id) ? `"${id}"` : JSON.stringify(id);
  const scoreText = typeof score === 'number' && Number.isFinite(score) ? String(score) : JSON.stringify(score);
  return `{"_id":${idText},"_score":${scoreText}`;
}

/** The text of one hit before its source (`{..."_source":`) and after it (`...}`). */
function aroundSource(hit: Hit): [string, string] {
  const keys = Object.keys(hit);
  // the engine's hit, {_id, _score, _source[, highlight][, sort]}: ids are mostly plain, scores finite numbers or null
  let tail = 3;
  if (keys[tail] === 'highlight') tail++;
  if (keys[tail] === 'sort') tail++;
  if (keys.length >= 3 && keys.length === tail && keys[0] === '_id' && keys[1] === '_score' && keys[2] === '_source') {
    const highlight = hit.highlight === undefined ? '' : `,"highlight":${JSON.stringify(hit.highlight)}`;
    return [`${hitHead(hit._id, hit._score)},"_source":`, hit.sort === undefined ? `${highlight}}` : `${highlight},"sort":${JSON.stringify(hit.sort)}}`];
  }
  // any other shape: serialized around `_source`, which is not read (that would parse it)
  const fields: Record<string, unknown> = {};
  for (const key of keys) fields[key] = key === '_source' ? MARK : (hit as unknown as Record<string, unknown>)[key];
  return splitAtMark(JSON.stringify(fields));
}

/**
 * The UTF-8 bytes of a page's hits, added one hit at a time and taken a run of hits at a time (a
 * large page is made in slices: transport/envelopeJson.ts), each stored source copied in as it is
 * stored (never decoded): `[` before the first hit of the page, `,` before any other. The page's
 * closing `]` is not included.
 */
export class PageBytes {
  private parts: (string | Buffer)[] = [];
  private length = 0;

  /** Hit `i` of the page. */
  add(hits: readonly Hit[], i: number): void {
    const separator = i === 0 ? '[' : ',';
    const hit = hits[i];
    const json = isObject(hit) ? hit[SOURCE_JSON] : undefined;
    if (json === undefined) {
      const text = separator + (JSON.stringify(hit) ?? 'null');
      this.parts.push(text);
      this.length += Buffer.byteLength(text);
      return;
    }
    const [before, after] = aroundSource(hit);
    this.parts.push(separator + before, json, after);
    this.length += Buffer.byteLength(separator + before) + json.length + Buffer.byteLength(after);
  }

  /** The bytes of the hits added since the last take, in one buffer. */
  take(): Buffer {
    const out = Buffer.allocUnsafe(this.length);
    let at = 0;
    for (const part of this.parts) at += typeof part === 'string' ? out.write(part, at) : part.copy(out, at);
    this.parts = [];
    this.length = 0;
    return out;
  }
}

/** `[hit,...]` as JSON text. */
export function hitsJson(hits: readonly Hit[]): string {
  let text = '[';
  hits.forEach((hit, i) => {
    if (i > 0) text += ',';
    const json = isObject(hit) ? hit[SOURCE_JSON] : undefined;
    if (json === undefined) {
      text += JSON.stringify(hit) ?? 'null';
      return;
    }
    const [before, after] = aroundSource(hit);
    text += before + json.toString('utf8') + after;
  });
  return `${text}]`;
}
