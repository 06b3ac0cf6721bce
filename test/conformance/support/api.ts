/** Short REST calls for the conformance suite: envelope in, result or error id out. */
import { request, type TestServer } from '../../support/testServer';
import { expectError, expectOk } from '../../support/e2e';
import { parseCollection, type EntityType } from '../../../src/core/entities/entityType';
import { uniqueToken } from './targets';

export interface Caller {
  server: TestServer;
  token: string;
}

export async function call(c: Caller, method: string, path: string, body?: unknown) {
  const res = await request(c.server, method, path, { token: c.token, body });
  return { httpStatus: res.status, envelope: res.body };
}

export const ok = async (c: Caller, method: string, path: string, body?: unknown) => expectOk(await call(c, method, path, body));
export const failsWith = async (c: Caller, method: string, path: string, body: unknown, id: string, status: number) => {
  const answer = await call(c, method, path, body);
  expectError(answer, id, status);
  return answer.envelope.error;
};

/** A collection no other test uses (so that suites can share one Elasticsearch), with its entity type. */
export function uniqueCollection(plural = 'countries'): EntityType {
  const type = parseCollection(`t${uniqueToken()}-${plural}`);
  if (!type.ok) throw new Error(type.error.message);
  return type.value;
}
