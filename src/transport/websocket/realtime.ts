/**
 * Kuzzle's `realtime` controller on the raw WebSocket: `subscribe` answers `{roomId, channel}` and
 * then pushes `{room: channel, type: "document", scope: "in"|"out", action, result: {_id, _source}}`
 * for each visible change of the collection (optionally filtered: Koncorde filters as the body, as
 * Kuzzle's SDKs send them, or `{query: <query DSL>}`: core/events/subscriptionFilter.ts; `scope`, a
 * top-level field, keeps only entries or exits: core/events/entityChanges.ts); `unsubscribe` takes
 * `{roomId}`. Subscriptions live as long as the connection, and end when their token stops working.
 */
import { randomUUID } from 'node:crypto';
import type { WebSocket } from 'ws';
import { isPlainObject } from '../../core/args';
import type { CoreDeps } from '../../core/deps';
import { buildEnvelope, CALLER, type Envelope } from '../../core/envelope';
import { ApiError, type Result } from '../../core/errors';
import { parseAddress } from '../../core/entities/address';
import { parseScope, subscribeEntityChanges } from '../../core/events/entityChanges';
import { subscriptionFilterOfBody } from '../../core/events/subscriptionFilter';
import { admit } from '../../core/rateLimit/admission';
import type { ApiRequest } from '../../core/request';
import type { SocketExtension, SocketOutput } from './rawSocket';

const envelopeOf = (req: ApiRequest, deps: CoreDeps, outcome: Result<unknown>, addressed: boolean): Envelope =>
  buildEnvelope(req, outcome, deps.settings.indexName, addressed);

/** The realtime controller, and how many subscriptions it holds open (metrics). */
export function realtimeExtension(deps: CoreDeps): SocketExtension & { readonly subscriptions: number } {
  /** Subscriptions open over every connection. */
  let live = 0;
  const rooms = new WeakMap<WebSocket, Map<string, () => void>>();

  function roomsOf(socket: WebSocket): Map<string, () => void> {
    let mine = rooms.get(socket);
    if (mine === undefined) {
      const created = new Map<string, () => void>();
      rooms.set(socket, created);
      socket.once('close', () => {
        for (const close of created.values()) close();
        live -= created.size;
        created.clear();
      });
      mine = created;
    }
    return mine;
  }

  const fail = (id: ConstructorParameters<typeof ApiError>[0], props = {}): Result<never> => ({ ok: false, error: new ApiError(id, props) });

  async function handle(socket: WebSocket, req: ApiRequest, { reply: replyAnonymous, push: send }: SocketOutput): Promise<void> {
    // (admitted as the dispatcher admits: authentication and rate limits)
    const { principal: auth } = await admit(deps, req.jwt, req.client);
    if (!auth.ok) {
      replyAnonymous(envelopeOf(req, deps, auth, false));
      return;
    }
    // every answer from here on tells who asked (the access log), as the dispatcher's do
    const reply = (envelope: Envelope) => {
      envelope[CALLER] = auth.value;
      replyAnonymous(envelope);
    };
    if (req.action === 'subscribe') {
      const type = parseAddress(req, deps);
      if (!type.ok) {
        reply(envelopeOf(req, deps, type, true));
        return;
      }
      const scope = parseScope(req.args.scope);
      if (!scope.ok) {
        reply(envelopeOf(req, deps, scope, true));
        return;
      }
      const filter = subscriptionFilterOfBody(req.body);
      if (!filter.ok) {
        reply(envelopeOf(req, deps, filter, true));
        return;
      }
      const channel = randomUUID();
      const mine = roomsOf(socket);
      const opened = subscribeEntityChanges(deps, auth.value, req.jwt, { type: type.value, ...filter.value, scope: scope.value }, {
        onChange(change, scope, source) {
          send({
            room: channel,
            requestId: randomUUID(),
            status: 200,
            type: 'document',
            scope,
            controller: 'document',
            action: change.action,
            index: deps.settings.indexName,
            collection: change.collection,
            volatile: null,
            timestamp: deps.now(),
            result: { _id: change._id, _source: source },
          });
        },
        onRevoked(error) {
          if (mine.delete(channel)) live--;
          send({ room: channel, type: 'TokenExpired', status: error.status, message: error.message, error: error.toObject() });
        },
      });
      if (opened.ok) {
        mine.set(channel, opened.value);
        live++;
      }
      reply(envelopeOf(req, deps, opened.ok ? { ok: true, value: { roomId: channel, channel } } : opened, true));
      return;
    }
    if (req.action === 'unsubscribe') {
      const roomId = isPlainObject(req.body) ? req.body.roomId : undefined;
      const mine = roomsOf(socket);
      let outcome: Result<unknown>;
      if (typeof roomId !== 'string' || roomId === '') outcome = fail('api.assert.missing_argument', { name: 'roomId' });
      else if (!mine.has(roomId)) outcome = fail('services.storage.not_found', { what: 'Subscription', id: roomId });
      else {
        mine.get(roomId)!();
        if (mine.delete(roomId)) live--;
        outcome = { ok: true, value: { roomId } };
      }
      reply(envelopeOf(req, deps, outcome, false));
      return;
    }
    reply(envelopeOf(req, deps, fail('api.process.action_not_found', { what: `Action "realtime:${req.action}"` }), false));
  }

  return {
    controller: 'realtime',
    handle,
    get subscriptions() {
      return live;
    },
  };
}
