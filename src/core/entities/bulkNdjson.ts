/**
 * `_bulk` in Elasticsearch's NDJSON form (Content-Type: application/x-ndjson): action/metadata
 * lines, each `index` or `create` followed by its source line, as Elasticsearch's
 * BulkRequestParser reads them. The structure is checked first, the whole body, before anything
 * is written (as Elasticsearch does): an action line that is not a JSON object naming one of
 * `index`, `create` (`update` and `delete` are refused by name), an unknown metadata parameter, an
 * `_index` other than the path's collection, an action without its source line, a body that does
 * not end with a newline: 400, nothing written. A source line is parsed only when its batch is
 * written: one that is not JSON (or nests too deep) is that item's error, the others are written.
 * Blank lines are skipped; `\r\n` ends a line as `\n` does.
 */
import { isPlainObject, optionalId } from '../args';
import { ApiError, fail, ok, type Result } from '../errors';

/** The body as the HTTP transport hands it over: its bytes, and the transport's JSON reader (UTF-8, MAX_JSON_DEPTH, catalogue errors). */
export class NdjsonBody {
  constructor(
    readonly bytes: Buffer,
    readonly parseJson: (bytes: Buffer) => Result<unknown>,
  ) {}
}

export interface NdjsonAction {
  op: 'index' | 'create';
  _id?: string;
  /** The source line's number (1-based) and bytes. */
  line: number;
  start: number;
  end: number;
}

const NEWLINE = 0x0a;
const CR = 0x0d;
const METADATA = new Set(['_id', '_index']);

const malformed = (reason: string) => fail<never>('api.assert.invalid_argument', { name: 'body', reason });

/** The lines of the body: [start, end) without the line break, and their numbers; null when the body does not end with a newline. */
function lines(bytes: Buffer): { line: number; start: number; end: number }[] | null {
  const out: { line: number; start: number; end: number }[] = [];
  let from = 0;
  let line = 0;
  while (from < bytes.length) {
    const nl = bytes.indexOf(NEWLINE, from);
    if (nl === -1) return null;
    line++;
    const end = nl > from && bytes[nl - 1] === CR ? nl - 1 : nl;
    if (bytes.subarray(from, end).some((b) => b !== 0x20 && b !== 0x09)) out.push({ line, start: from, end });
    from = nl + 1;
  }
  return out;
}

/** The actions of an NDJSON bulk body addressed to `collection`, or the 400 that refuses it whole. */
export function parseNdjsonBulk(body: NdjsonBody, collection: string): Result<NdjsonAction[]> {
  const all = lines(body.bytes);
  if (all === null) return malformed('The bulk request must be terminated by a newline [\\n]');
  if (all.length === 0) return fail('api.assert.body_required');
  const actions: NdjsonAction[] = [];
  for (let i = 0; i < all.length; i++) {
    const { line, start, end } = all[i];
    const parsed = body.parseJson(body.bytes.subarray(start, end));
    if (!parsed.ok) return malformed(`Malformed action/metadata line [${line}]: ${parsed.error.message}`);
    const action = parsed.value;
    if (!isPlainObject(action)) return malformed(`Malformed action/metadata line [${line}], expected START_OBJECT`);
    const keys = Object.keys(action);
    if (keys.length !== 1) return malformed(`Malformed action/metadata line [${line}], expected one field, [create] or [index], but found ${keys.length}`);
    const op = keys[0];
    if (op === 'update' || op === 'delete') {
      return malformed(`line [${line}]: the bulk action [${op}] is not supported here (use ${op === 'update' ? 'PATCH' : 'DELETE'} /v4/entity/${collection}/<_id>); only [create] and [index] are`);
    }
    if (op !== 'index' && op !== 'create') return malformed(`Malformed action/metadata line [${line}], expected field [create], [delete], [index] or [update] but found [${op}]`);
    const metadata = action[op];
    if (!isPlainObject(metadata)) return malformed(`Malformed action/metadata line [${line}], expected START_OBJECT for [${op}]`);
    for (const key of Object.keys(metadata)) {
      if (!METADATA.has(key)) return malformed(`Action/metadata line [${line}] contains an unknown parameter [${key}]`);
    }
    if (metadata._index !== undefined && metadata._index !== collection) {
      return malformed(`Action/metadata line [${line}]: [_index] ${JSON.stringify(metadata._index)} is not this request's collection [${collection}]`);
    }
    const id = optionalId('_id', metadata._id);
    if (!id.ok) return malformed(`Action/metadata line [${line}]: ${id.error.message}`);
    const source = all[i + 1];
    if (source === undefined) return malformed(`Action/metadata line [${line}]: the [${op}] action has no source line after it`);
    actions.push({ op, _id: id.value, line: source.line, start: source.start, end: source.end });
    i++;
  }
  return ok(actions);
}

/** An action's source, parsed: the entity's body, or that item's error (naming its line). */
export function parseSource(body: NdjsonBody, action: NdjsonAction): Result<unknown> {
  const parsed = body.parseJson(body.bytes.subarray(action.start, action.end));
  if (parsed.ok) return parsed;
  return { ok: false, error: new ApiError(parsed.error.id, { ...parsed.error.props, reason: `line [${action.line}]: ${String(parsed.error.props.reason ?? parsed.error.message)}` }) };
}
