/**
 * An operation: one controller/action, one file. `parse` turns a transport's request into typed
 * input (REST and raw WebSocket); GraphQL resolvers build the input themselves and call `run`.
 */
import type { OperationContract } from './contract';
import type { CoreDeps } from './deps';
import type { Now, Result } from './errors';
import type { Principal } from './principal';
import type { ApiRequest } from './request';

export interface Operation<I = any, O = unknown> {
  controller: string;
  action: string;
  /** Whether the envelope names the request's index and collection (entity operations) or nulls them. */
  addressesCollection: boolean;
  /** Runs without authentication (the principal is then an anonymous one): auth:checkToken, server:now, server:healthCheck. */
  public?: boolean;
  /**
   * The role rule of the action, as auth:checkRights tells it; absent: any authenticated caller.
   * (The operation itself checks it again when it runs, with the rules that depend on the data.)
   */
  allows?(principal: Principal): boolean;
  /**
   * For a public operation that verifies a token of its input (auth:checkToken): whether its answer
   * refused that token, which then counts against RATE_LIMIT_AUTH_FAILURES as a refused bearer does.
   */
  refusesToken?(output: O): boolean;
  /**
   * Its arguments, body, result and errors as data (core/contract.ts): the REST API's OpenAPI
   * document is made from it. Every operation of core/operations.ts has one (contract.test.ts).
   */
  contract?: OperationContract;
  parse(req: ApiRequest, deps: CoreDeps): Result<I>;
  /** A promise, or the result at once when the operation has it (see Now). */
  run(deps: CoreDeps, principal: Principal, input: I): Now<Result<O>>;
}

export const defineOperation = <I, O>(op: Operation<I, O>): Operation<I, O> => op;
