/** Subscription resolvers: live entity changes from the core's change feed. */
import { isPlainObject } from '../../../core/args';
import { parseTypeName } from '../../../core/entities/entityType';
import { AsyncQueue } from '../../../core/events/asyncQueue';
import type { EntityChange } from '../../../core/events/changeFeed';
import { subscribeEntityChanges } from '../../../core/events/entityChanges';
import { fail } from '../../../core/errors';
import type { QueryDsl } from '../../../store/port';
import type { GraphQLContext } from '../context';
import { toGraphQLError, unwrap } from '../errors';

export const subscriptionResolvers = {
  entityChanged: {
    async subscribe(_: unknown, args: { type: string; query?: unknown }, ctx: GraphQLContext) {
      const principal = await ctx.principal();
      const type = unwrap(parseTypeName(args.type), ctx.requestId);
      if (args.query !== undefined && args.query !== null && !isPlainObject(args.query)) {
        unwrap(fail('services.storage.invalid_search_query', { reason: '"query" must be an object' }), ctx.requestId);
      }
      let close = () => {};
      const queue = new AsyncQueue<EntityChange>(() => close());
      close = unwrap(
        subscribeEntityChanges(ctx.deps, principal, ctx.jwt, { type, query: (args.query ?? undefined) as QueryDsl | undefined }, {
          onChange: (change) => queue.push(change),
          onRevoked: (error) => queue.fail(toGraphQLError(error, ctx.requestId)),
        }),
        ctx.requestId,
      );
      return queue;
    },
    resolve: (change: EntityChange) => change,
  },
};
