/**
 * One request object for every transport: REST and raw WebSocket build it, the dispatcher reads it.
 * Modelled on Kuzzle's request: controller + action, the addressed resource, body and arguments.
 */

export interface ApiRequest {
  controller: string;
  action: string;
  index: string | null;
  /** Hyphenated plural entity type segment, e.g. `countries`. */
  collection: string | null;
  _id: string | null;
  /** undefined when no body was sent. */
  body: unknown;
  /** The body's JSON text as the client sent it, when the transport has it (REST); else null. */
  bodyText: string | null;
  /** Other arguments: from, size, expiresIn... as the client wrote them (strings from a URL, any JSON from a message). */
  args: Record<string, unknown>;
  /** Bearer token, without the "Bearer " prefix; null when none was sent. */
  jwt: string | null;
  requestId: string;
  volatile: Record<string, unknown> | null;
  /**
   * The client's address as the transport knows it (the socket's, or X-Forwarded-For's with
   * TRUST_PROXY), for the rate limits; null when unknown. Never a token.
   */
  client: string | null;
}

export function makeRequest(fields: Partial<ApiRequest> & Pick<ApiRequest, 'controller' | 'action' | 'requestId'>): ApiRequest {
  return {
    index: null,
    collection: null,
    _id: null,
    body: undefined,
    bodyText: null,
    args: {},
    jwt: null,
    volatile: null,
    client: null,
    ...fields,
  };
}
