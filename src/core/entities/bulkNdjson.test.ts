/** The NDJSON _bulk body's structure, as Elasticsearch's BulkRequestParser reads it: refused whole (400) or split into actions. */
import { fail, ok } from '../errors';
import { NdjsonBody, parseNdjsonBulk, parseSource } from './bulkNdjson';

const json = (bytes: Buffer) => {
  try {
    return ok(JSON.parse(bytes.toString('utf8')) as unknown);
  } catch (err) {
    return fail('network.http.body_parse_failed', { reason: (err as Error).message.slice(0, 40) });
  }
};
const body = (text: string) => new NdjsonBody(Buffer.from(text), json);
const parse = (text: string) => parseNdjsonBulk(body(text), 'countries');
const refusal = (text: string) => {
  const r = parse(text);
  if (r.ok) throw new Error('accepted');
  return [r.error.id, r.error.status, r.error.message];
};

describe('parseNdjsonBulk', () => {
  it('pairs each index or create action with its source line; blank lines skipped, CRLF', () => {
    const text = '{"index":{"_id":"fr"}}\r\n{"name":"France"}\r\n\n{"create":{}}\n  \n{"name":"Peru"}\n{"index":{"_index":"countries"}}\nnot json\n';
    const r = parse(text);
    expect(r.ok && r.value.map(({ op, _id, line }) => ({ op, _id, line }))).toEqual([
      { op: 'index', _id: 'fr', line: 2 },
      { op: 'create', _id: undefined, line: 6 },
      { op: 'index', _id: undefined, line: 8 },
    ]);
    if (!r.ok) return;
    const sources = r.value.map((a) => parseSource(body(text), a));
    expect(sources[0]).toEqual(ok({ name: 'France' }));
    expect(sources[1]).toEqual(ok({ name: 'Peru' }));
    expect(!sources[2].ok && sources[2].error.message).toMatch(/^The request body could not be parsed: line \[8\]: /);
  });

  it.each([
    ['{"index":{}}\n{"a":1}', 'must be terminated by a newline'],
    ['{"index":{}\n{"a":1}\n', 'Malformed action/metadata line [1]'],
    ['["index"]\n{"a":1}\n', 'Malformed action/metadata line [1], expected START_OBJECT'],
    ['{"index":{},"create":{}}\n{"a":1}\n', 'expected one field'],
    ['{"upsert":{}}\n{"a":1}\n', 'expected field [create], [delete], [index] or [update] but found [upsert]'],
    ['{"create":{}}\n{"a":1}\n{"update":{"_id":"x"}}\n{"doc":{}}\n', 'line [3]: the bulk action [update] is not supported here (use PATCH /v4/entity/countries/<_id>)'],
    ['{"delete":{"_id":"x"}}\n', 'the bulk action [delete] is not supported here (use DELETE'],
    ['{"index":"x"}\n{"a":1}\n', 'expected START_OBJECT for [index]'],
    ['{"index":{"routing":"r"}}\n{"a":1}\n', 'Action/metadata line [1] contains an unknown parameter [routing]'],
    ['{"index":{"_index":"regions"}}\n{"a":1}\n', '[_index] "regions" is not this request\'s collection [countries]'],
    ['{"index":{"_id":"a b"}}\n{"a":1}\n', 'Action/metadata line [1]: Invalid argument "_id"'],
    ['{"create":{}}\n{"a":1}\n{"create":{}}\n', 'Action/metadata line [3]: the [create] action has no source line after it'],
  ])('refuses %j whole: 400 (%s)', (text, message) => {
    const [id, status, said] = refusal(text);
    expect([id, status]).toEqual(['api.assert.invalid_argument', 400]);
    expect(said).toContain(message);
  });

  it('refuses a body of blank lines as no body', () => {
    expect(refusal('\n \n')[0]).toBe('api.assert.body_required');
  });
});
