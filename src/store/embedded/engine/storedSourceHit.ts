/**
 * A hit whose `_source` stays the stored JSON text until someone reads it. Answers that only pass
 * the source on (REST, raw WebSocket) copy the bytes (SOURCE_JSON) and never build the object;
 * whoever reads `_source` gets a fresh parsed copy, theirs to change, and the bytes are dropped so
 * that nothing can serialize a stale text.
 */
import { Doc, Hit, READ_ONLY_SOURCE, SOURCE_JSON } from '../../port';

/** A source text kept by the request cache, with its frozen parse once someone needed it. */
export interface SharedSource {
  json: Buffer;
  frozen?: Readonly<Doc>;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

/** Own `_source` accessor, shared by every hit (made in the class body, where it sees the private fields). */
let sourceDescriptor: PropertyDescriptor;

class StoredSourceHit {
  declare _id: string;
  declare _score: number | null;
  declare _source: Doc;
  declare sort?: unknown[];
  #bytes: Buffer | undefined;
  #source: Doc | undefined;
  #shared: SharedSource | undefined;

  static {
    // reading parses once; from then on the object read (or assigned) is the source, and the bytes are gone
    sourceDescriptor = {
      enumerable: true,
      get(this: StoredSourceHit): Doc {
        if (this.#source === undefined) {
          this.#source = JSON.parse((this.#bytes as Buffer).toString('utf8')) as Doc;
          this.#bytes = undefined;
        }
        return this.#source;
      },
      set(this: StoredSourceHit, value: Doc) {
        this.#source = value;
        this.#bytes = undefined;
      },
    };
  }

  constructor(id: string, score: number | null, json: Buffer, shared: SharedSource | undefined) {
    this._id = id;
    this._score = score;
    Object.defineProperty(this, '_source', sourceDescriptor);
    this.#bytes = json;
    this.#shared = shared;
  }

  /** The shared frozen parse while `_source` was neither read nor replaced, else `_source`. */
  get [READ_ONLY_SOURCE](): Readonly<Doc> {
    const shared = this.#shared;
    if (this.#source !== undefined || shared === undefined) return this._source;
    return (shared.frozen ??= deepFreeze(JSON.parse(shared.json.toString('utf8')) as Doc));
  }

  /** On the prototype, not the hit: copies and deep comparisons see a plain hit. */
  get [SOURCE_JSON](): Buffer | undefined {
    return this.#bytes;
  }
}

/**
 * `json`: the UTF-8 JSON text of the source (JSON.parse of it is the source); `shared`: the same
 * text as kept by the request cache, whose frozen parse read-only readers share.
 */
export function storedSourceHit(id: string, score: number | null, json: Buffer, shared?: SharedSource): Hit {
  return new StoredSourceHit(id, score, json, shared);
}
