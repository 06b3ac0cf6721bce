/**
 * The one entry point of REST and raw WebSocket: request in, envelope out. Finds the operation,
 * authenticates, parses, runs, and maps every failure to the catalogue exactly once.
 */
import type { CoreDeps } from './deps';
import { buildEnvelope, type Envelope } from './envelope';
import { ApiError, isInternal, ok, toApiError, type Now, type Result } from './errors';
import { ANONYMOUS, type Principal } from './principal';
import type { Operation } from './operation';
import type { ApiRequest } from './request';

export type InternalErrorReporter = (err: unknown, req: ApiRequest) => void;

export class Dispatcher {
  private readonly operations = new Map<string, Operation>();

  constructor(
    private readonly deps: CoreDeps,
    operations: Operation[],
    private readonly reportInternal: InternalErrorReporter,
  ) {
    for (const op of operations) this.operations.set(`${op.controller}:${op.action}`, op);
  }

  has(controller: string, action: string): boolean {
    return this.operations.has(`${controller}:${action}`);
  }

  /**
   * The envelope: at once when authentication and the operation answer at once (a known token, a
   * cached search: see Now), otherwise its promise. Never throws, never rejects: every failure is
   * an envelope.
   */
  dispatch(req: ApiRequest): Now<Envelope> {
    const op = this.operations.get(`${req.controller}:${req.action}`);
    if (op === undefined) {
      return this.envelope(req, null, { ok: false, error: new ApiError('api.process.action_not_found', { what: `Action "${req.controller}:${req.action}"` }) });
    }
    let outcome: Now<Result<unknown>>;
    try {
      outcome = this.execute(op, req);
    } catch (err) {
      return this.envelope(req, op, { ok: false, error: this.unexpected(err, req) });
    }
    if (!(outcome instanceof Promise)) return this.envelope(req, op, outcome);
    return outcome.then(
      (result) => this.envelope(req, op, result),
      (err: unknown) => this.envelope(req, op, { ok: false, error: this.unexpected(err, req) }),
    );
  }

  private execute(op: Operation, req: ApiRequest): Now<Result<unknown>> {
    const principal = op.public ? ok(ANONYMOUS) : this.deps.authenticator.authenticate(req.jwt);
    return principal instanceof Promise ? principal.then((p) => this.run(op, req, p)) : this.run(op, req, principal);
  }

  private run(op: Operation, req: ApiRequest, principal: Result<Principal>): Now<Result<unknown>> {
    if (!principal.ok) return principal;
    const input = op.parse(req, this.deps);
    if (!input.ok) return input;
    return op.run(this.deps, principal.value, input.value);
  }

  private unexpected(err: unknown, req: ApiRequest): ApiError {
    const error = toApiError(err);
    if (isInternal(error)) this.reportInternal(err, req);
    return error;
  }

  private envelope(req: ApiRequest, op: Operation | null, outcome: Result<unknown>): Envelope {
    // An unknown action echoes what the request named; a known one names the configured index.
    if (op === null) return buildEnvelope(req, outcome, req.index, true);
    return buildEnvelope(req, outcome, this.deps.settings.indexName, op.addressesCollection);
  }
}
