/**
 * The one entry point of REST and raw WebSocket: request in, envelope out. Finds the operation,
 * authenticates, parses, runs, and maps every failure to the catalogue exactly once.
 */
import type { CoreDeps } from './deps';
import { buildEnvelope, CALLER, RATE_STATE, type Envelope } from './envelope';
import { ApiError, isInternal, toApiError, type Now, type Result } from './errors';
import type { Operation } from './operation';
import type { Principal } from './principal';
import { admit, admitAnonymous, countRefusedToken, type Admission } from './rateLimit/admission';
import type { RateState } from './rateLimit/rateLimits';
import type { ApiRequest } from './request';

/** What a request came to: its result, the rate limit that applied to it (RateLimit headers), and who made it once authenticated. */
interface Outcome {
  result: Result<unknown>;
  rate: RateState | null;
  caller?: Principal;
}

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
    let outcome: Now<Outcome>;
    try {
      outcome = this.execute(op, req);
    } catch (err) {
      return this.envelope(req, op, { ok: false, error: this.unexpected(err, req) });
    }
    if (!(outcome instanceof Promise)) return this.envelope(req, op, outcome.result, outcome.rate, outcome.caller);
    return outcome.then(
      (o) => this.envelope(req, op, o.result, o.rate, o.caller),
      (err: unknown) => this.envelope(req, op, { ok: false, error: this.unexpected(err, req) }),
    );
  }

  /** Admission (authentication and rate limits: rateLimit/admission.ts), then the operation. */
  private execute(op: Operation, req: ApiRequest): Now<Outcome> {
    const admitted = op.public ? admitAnonymous(this.deps, req.client, op.refusesToken !== undefined) : admit(this.deps, req.jwt, req.client);
    return admitted instanceof Promise ? admitted.then((a) => this.run(op, req, a)) : this.run(op, req, admitted);
  }

  private run(op: Operation, req: ApiRequest, { principal, rate }: Admission): Now<Outcome> {
    if (!principal.ok) return { result: principal, rate };
    // (a public operation's caller is anonymous: not told)
    const caller = op.public ? undefined : principal.value;
    const input = op.parse(req, this.deps);
    if (!input.ok) return { result: input, rate, caller };
    const result = op.run(this.deps, principal.value, input.value);
    if (op.refusesToken !== undefined) return Promise.resolve(result).then((r) => this.tokenChecked(op, req, r, rate));
    return result instanceof Promise ? result.then((r) => ({ result: r, rate, caller })) : { result, rate, caller };
  }

  /** A public operation that refused the token it checked counts as an authentication failure of the address. */
  private async tokenChecked(op: Operation, req: ApiRequest, result: Result<unknown>, rate: RateState | null): Promise<Outcome> {
    if (!result.ok || !op.refusesToken!(result.value)) return { result, rate };
    return { result, rate: (await countRefusedToken(this.deps, req.client)) ?? rate };
  }

  private unexpected(err: unknown, req: ApiRequest): ApiError {
    const error = toApiError(err);
    if (isInternal(error)) this.reportInternal(err, req);
    return error;
  }

  private envelope(req: ApiRequest, op: Operation | null, outcome: Result<unknown>, rate: RateState | null = null, caller?: Principal): Envelope {
    // An unknown action echoes what the request named; a known one names the configured index.
    const envelope = op === null ? buildEnvelope(req, outcome, req.index, true) : buildEnvelope(req, outcome, this.deps.settings.indexName, op.addressesCollection);
    if (rate !== null) envelope[RATE_STATE] = rate;
    if (caller !== undefined) envelope[CALLER] = caller;
    return envelope;
  }
}
