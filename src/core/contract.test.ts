/**
 * Every operation's contract against its parse: the arguments parse reads are exactly those the
 * contract lists, the body keys it reads are described, a closed body's keys are accepted one by
 * one and any other key refused, an open body's other keys accepted, every example accepted. An
 * argument or body key added to parse and not to the contract (or the other way) fails here.
 */
import { ADDRESS_ARGS, AUTHENTICATION_ERRORS, COMMON_ERRORS, ERROR_OBJECT_SCHEMA, errorsOf, type JsonSchema, type OperationContract } from './contract';
import type { CoreDeps } from './deps';
import { catalogue } from './errors';
import { isPlainObject } from './args';
import { operations } from './operations';
import type { Operation } from './operation';
import { makeRequest } from './request';

const deps = { settings: { indexName: 'entity', apiKeyCacheMs: 0, searchTimeoutMs: 10_000 } } as CoreDeps;

/** The value, recording the names of the properties read from it (plain objects only). */
function recorded<T>(value: T, reads: Set<string>): T {
  if (!isPlainObject(value)) return value;
  return new Proxy(value, {
    get(target, key, receiver) {
      if (typeof key === 'string') reads.add(key);
      return Reflect.get(target, key, receiver);
    },
  }) as T;
}

interface Parsed {
  ok: boolean;
  error?: string;
  argReads: Set<string>;
  bodyReads: Set<string>;
}

function parse(op: Operation, contract: OperationContract, body: unknown, args: Record<string, unknown> = {}): Parsed {
  const argReads = new Set<string>();
  const bodyReads = new Set<string>();
  const req = makeRequest({
    controller: op.controller,
    action: op.action,
    requestId: 'r1',
    collection: op.addressesCollection ? ADDRESS_ARGS.collection.example as string : null,
    _id: contract.addressesDocument ? (ADDRESS_ARGS._id.example as string) : null,
    body: recorded(structuredClone(body), bodyReads),
    args: recorded({ ...args }, argReads),
  });
  const result = op.parse(req, deps);
  return { ok: result.ok, error: result.ok ? undefined : `${result.error.id}: ${result.error.message}`, argReads, bodyReads };
}

/** The body keys a schema describes (its properties, and those of its oneOf/anyOf branches). */
function describedKeys(schema: JsonSchema): Set<string> {
  const keys = new Set(Object.keys((schema.properties as object | undefined) ?? {}));
  for (const branch of [...((schema.oneOf as JsonSchema[] | undefined) ?? []), ...((schema.anyOf as JsonSchema[] | undefined) ?? [])]) {
    for (const key of describedKeys(branch)) keys.add(key);
  }
  return keys;
}

const withContracts = operations.map((op) => [`${op.controller}:${op.action}`, op, op.contract] as const);

describe('operation contracts', () => {
  it('every operation has one, with a result example and its own errors from the catalogue', () => {
    for (const [name, , contract] of withContracts) {
      expect([name, contract === undefined]).toEqual([name, false]);
      expect(contract!.summary.length).toBeGreaterThan(0);
      for (const id of contract!.errors) expect(Object.keys(catalogue)).toContain(id);
    }
  });

  describe.each(withContracts)('%s', (_name, op, maybe) => {
    const contract = maybe!;
    const examples = Object.entries(contract.body?.examples ?? { none: { summary: 'no body', value: undefined } });
    const firstBody = examples[0][1].value;

    it.each(examples)('accepts its body example "%s"', (_key, { value }) => {
      const parsed = parse(op, contract, value);
      expect(parsed.error).toBeUndefined();
      // (a closed body's keys are checked below: its parse accepts those described and refuses others)
      if (contract.body?.schema.additionalProperties !== false) {
        expect([...parsed.bodyReads].filter((key) => !describedKeys(contract.body!.schema).has(key))).toEqual([]);
      }
    });

    it('reads exactly the arguments it describes, and accepts each example', () => {
      expect([...parse(op, contract, firstBody).argReads].sort()).toEqual(Object.keys(contract.args ?? {}).sort());
      for (const [name, arg] of Object.entries(contract.args ?? {})) {
        expect([name, parse(op, contract, firstBody, { [name]: arg.example }).error]).toEqual([name, undefined]);
      }
    });

    if (contract.body === undefined) {
      it('reads no body', () => {
        expect([...parse(op, contract, { some: 'body' }).bodyReads]).toEqual([]);
      });
      return;
    }
    const { schema } = contract.body;
    if (schema.additionalProperties === false) {
      it('accepts each key of its closed body alone, and refuses any other', () => {
        for (const [key, property] of Object.entries(schema.properties as Record<string, JsonSchema>)) {
          expect(property.examples).toBeInstanceOf(Array);
          const value = (property.examples as unknown[])[0];
          expect([key, parse(op, contract, { [key]: value }).error]).toEqual([key, undefined]);
        }
        expect(parse(op, contract, { ...(firstBody as object), undescribed: 1 }).error).toMatch(/undescribed/);
      });
    } else if (schema.type === 'object') {
      it('accepts a key its open body does not describe', () => {
        expect(parse(op, contract, { ...(firstBody as object), undescribed: 1 }).error).toBeUndefined();
      });
    }
    if (contract.body.required) {
      it('refuses a request without a body', () => {
        // (create, replace and update refuse it when they run: body_required, listed in their errors)
        const parsed = parse(op, contract, undefined);
        if (parsed.ok) expect(contract.errors).toContain('api.assert.body_required');
        else expect(parsed.error).toMatch(/^api\.assert\.body_required/);
      });
    }
  });
});

describe('shared contract pieces', () => {
  it("the error object's ids are the catalogue's", () => {
    expect((ERROR_OBJECT_SCHEMA.properties as Record<string, JsonSchema>).id.enum).toEqual(Object.keys(catalogue));
  });

  it('errorsOf adds the common errors, and the authentication ones to operations that need a token', () => {
    const contract: OperationContract = { summary: 's', description: 'd', result: {}, resultExample: null, errors: ['services.storage.not_found', 'core.fatal.unexpected_error'] };
    expect(errorsOf(contract, true).sort()).toEqual(['services.storage.not_found', ...COMMON_ERRORS].sort());
    expect(errorsOf(contract, false).sort()).toEqual(['services.storage.not_found', ...COMMON_ERRORS, ...AUTHENTICATION_ERRORS].sort());
  });
});
