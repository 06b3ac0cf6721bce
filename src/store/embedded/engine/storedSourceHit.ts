/**
 * A hit whose `_source` stays the stored JSON text until someone reads it. Answers that only pass
 * the source on (REST, raw WebSocket) copy the bytes (SOURCE_JSON) and never build the object;
 * whoever reads `_source` gets a fresh parsed copy, theirs to change, and the bytes are dropped so
 * that nothing can serialize a stale text.
 */
import { Doc, Hit, SOURCE_JSON } from '../../port';

/** Own `_source` accessor, shared by every hit (made in the class body, where it sees the private fields). */
let sourceDescriptor: PropertyDescriptor;

class StoredSourceHit {
  declare _id: string;
  declare _score: number | null;
  declare _source: Doc;
  declare sort?: unknown[];
  #bytes: Buffer | undefined;
  #source: Doc | undefined;

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

  constructor(id: string, score: number | null, json: Buffer) {
    this._id = id;
    this._score = score;
    Object.defineProperty(this, '_source', sourceDescriptor);
    this.#bytes = json;
  }

  /** On the prototype, not the hit: copies and deep comparisons see a plain hit. */
  get [SOURCE_JSON](): Buffer | undefined {
    return this.#bytes;
  }
}

/** `json`: the UTF-8 JSON text of the source (JSON.parse of it is the source). */
export function storedSourceHit(id: string, score: number | null, json: Buffer): Hit {
  return new StoredSourceHit(id, score, json);
}
