/**
 * GraphQL answers over HTTP with stored source text copied in. A search hit's `source` resolves to
 * a RawJson holding the store's UTF-8 JSON text; Apollo's stringifyResult (`stringifyAnswer`)
 * splices that text into the answer instead of serializing a parsed copy. Whatever else serializes
 * a result (graphql-ws, Apollo's executeOperation) gets the parsed value through toJSON.
 */
import { MARK, MARK_JSON } from '../../store/hitsJson';

/** While stringifyAnswer runs: the texts met so far, in the order JSON.stringify met them. */
let collecting: Buffer[] | null = null;

export class RawJson {
  /** `json`: UTF-8 JSON text; `parsed`: the same value as an object, made only when asked for. */
  constructor(
    private readonly json: Buffer,
    private readonly parsed: () => unknown,
  ) {}

  toJSON(): unknown {
    if (collecting === null) return this.parsed();
    collecting.push(this.json);
    return MARK;
  }
}

/** JSON.stringify(value) + "\n" (Apollo's own format), with every RawJson's text copied in. */
export function stringifyAnswer(value: unknown): string {
  collecting = [];
  let json: string;
  let texts: Buffer[];
  try {
    json = JSON.stringify(value);
  } finally {
    texts = collecting;
    collecting = null;
  }
  if (texts.length === 0) return `${json}\n`;
  let out = '';
  let from = 0;
  for (const raw of texts) {
    const at = json.indexOf(MARK_JSON, from);
    out += json.slice(from, at) + raw.toString('utf8');
    from = at + MARK_JSON.length;
  }
  return `${out}${json.slice(from)}\n`;
}
