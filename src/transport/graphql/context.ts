/** Per-operation GraphQL context: the core, the caller's token, and its principal (authenticated once, lazily). */
import type { CoreDeps } from '../../core/deps';
import type { Result } from '../../core/errors';
import type { Principal } from '../../core/principal';
import { toGraphQLError } from './errors';
import type { GraphQLObservation } from './observed';

export interface GraphQLContext {
  deps: CoreDeps;
  jwt: string | null;
  requestId: string;
  /** The authenticated caller; throws the GraphQL form of the auth error. */
  principal(): Promise<Principal>;
  /** Where the operation is noted for the observer (metrics, access log), when observed. */
  observed?: GraphQLObservation;
}

/** `admitted`: the caller as the operation's admission found it (core/rateLimit/admission.ts); else authenticated when first asked. */
export function createContext(deps: CoreDeps, jwt: string | null, requestId: string, admitted?: Result<Principal>): GraphQLContext {
  let authenticated: Promise<Principal> | undefined;
  return {
    deps,
    jwt,
    requestId,
    principal() {
      authenticated ??= Promise.resolve(admitted ?? deps.authenticator.authenticate(jwt)).then((r) => {
        if (!r.ok) throw toGraphQLError(r.error, requestId);
        return r.value;
      });
      return authenticated;
    },
  };
}
