/** What the benchmarks that run the gateway share: their settings, its secret and token, and how it gets its corpus. */
import { TokenService } from '../../src/core/auth/tokens';
import { corpus, queries } from './corpus';

/** A numeric setting from the environment. */
export const setting = (name: string, fallback: number): number => Number(process.env[name] ?? fallback);

export const BENCH_SECRET = 'bench-secret-bench-secret-bench-secret-0123456789';

/** An admin token of tenant "bench", signed with BENCH_SECRET, valid for a day. */
export const benchToken = (): Promise<string> => new TokenService(new TextEncoder().encode(BENCH_SECRET)).sign({ sub: 'bench', tenantId: 'bench', roles: ['admin'] }, 86_400_000);

/** Loads `size` corpus entities as type "things" into the gateway at `base`, over REST _bulk, 1,000 at a time. */
export async function loadCorpus(base: string, token: string, size: number): Promise<void> {
  const docs = [...corpus(size)].map((d) => ({ ...d, slug: d._id })); // generated names repeat: keep slugs unique
  for (let i = 0; i < docs.length; i += 1000) {
    const res = await fetch(`${base}/v4/entity/things/_bulk`, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: JSON.stringify(docs.slice(i, i + 1000)) });
    const answer = (await res.json()) as { status: number; result?: { errors: unknown[] } };
    if (answer.status !== 200 || (answer.result?.errors.length ?? 0) > 0) throw new Error(`corpus load failed: ${JSON.stringify(answer).slice(0, 300)}`);
  }
}

/** The search body the gateway benchmarks send: BENCH_QUERY (JSON), or a two-word match on name. */
export const benchQuery = (): object => (process.env.BENCH_QUERY ? (JSON.parse(process.env.BENCH_QUERY) as object) : { query: { match: { name: queries(1)[0] } } });
