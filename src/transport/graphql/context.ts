/** Per-operation GraphQL context: the core, the caller's token, and its principal (authenticated once, lazily). */
import type { CoreDeps } from '../../core/deps';
import type { Principal } from '../../core/principal';
import { toGraphQLError } from './errors';

export interface GraphQLContext {
  deps: CoreDeps;
  jwt: string | null;
  requestId: string;
  /** The authenticated caller; throws the GraphQL form of the auth error. */
  principal(): Promise<Principal>;
}

export function createContext(deps: CoreDeps, jwt: string | null, requestId: string): GraphQLContext {
  let authenticated: Promise<Principal> | undefined;
  return {
    deps,
    jwt,
    requestId,
    principal() {
      authenticated ??= Promise.resolve(deps.authenticator.authenticate(jwt)).then((r) => {
        if (!r.ok) throw toGraphQLError(r.error, requestId);
        return r.value;
      });
      return authenticated;
    },
  };
}
