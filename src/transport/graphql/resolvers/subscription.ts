/** Subscription resolvers: live entity changes from the core's change feed. */
import { parseTypeName } from '../../../core/entities/entityType';
import { AsyncQueue } from '../../../core/events/asyncQueue';
import type { EntityChange } from '../../../core/events/changeFeed';
import { parseScope, subscribeEntityChanges, type ChangeScope } from '../../../core/events/entityChanges';
import { subscriptionFilterOfArgs } from '../../../core/events/subscriptionFilter';
import type { GraphQLContext } from '../context';
import { toGraphQLError, unwrap } from '../errors';

/** A change as a subscriber is told it: its scope, and the entity it may see. */
export type ScopedChange = EntityChange & { scope: ChangeScope };

export const subscriptionResolvers = {
  entityChanged: {
    async subscribe(_: unknown, args: { type: string; query?: unknown; filters?: unknown; scope?: string | null }, ctx: GraphQLContext) {
      const principal = await ctx.principal();
      const type = unwrap(parseTypeName(args.type), ctx.requestId);
      // the query DSL or Koncorde filters, not both
      const filter = unwrap(subscriptionFilterOfArgs(args.query, args.filters), ctx.requestId);
      const scope = unwrap(parseScope(args.scope ?? undefined), ctx.requestId);
      let close = () => {};
      const queue = new AsyncQueue<ScopedChange>(() => close());
      close = unwrap(
        subscribeEntityChanges(ctx.deps, principal, ctx.jwt, { type, ...filter, scope }, {
          onChange: (change, changeScope, source) => queue.push({ ...change, _source: source, scope: changeScope }),
          onRevoked: (error) => queue.fail(toGraphQLError(error, ctx.requestId)),
        }),
        ctx.requestId,
      );
      return queue;
    },
    resolve: (change: ScopedChange) => change,
  },
};
