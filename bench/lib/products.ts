/**
 * The entities of bench:scale and bench:abBulk: five fields (a three-word name, a 15-word
 * description of the bench vocabulary, Zipf-distributed, a code, an integer rank uniform in
 * [0, RANK_SPAN), allowTenantIds ["*"]), and their bulk bodies of BATCH entities.
 */
import { prng, vocabulary, zipf } from './corpus';

export const BATCH = 1000;
export const RANK_SPAN = 1_000_000;

export interface Product {
  _id: string;
  slug: string;
  name: string;
  description: string;
  code: string;
  rank: number;
  allowTenantIds: string[];
}

export function* products(count: number): Generator<Product> {
  const words = vocabulary();
  const rand = prng(17);
  const word = zipf(words.length, rand);
  const phrase = (n: number) => Array.from({ length: n }, () => words[word()]).join(' ');
  for (let i = 0; i < count; i++) {
    const id = `p${i}`;
    yield { _id: id, slug: id, name: phrase(3), description: phrase(15), code: `P-${(i % 100_000).toString().padStart(5, '0')}`, rank: Math.floor(rand() * RANK_SPAN), allowTenantIds: ['*'] };
  }
}

/** The bodies of a bulk load, a batch of BATCH entities each (JSON text), made one at a time as they are asked for. */
export function* batches(size: number): Generator<string> {
  let batch: Product[] = [];
  for (const product of products(size)) {
    batch.push(product);
    if (batch.length === BATCH) {
      yield JSON.stringify(batch);
      batch = [];
    }
  }
  if (batch.length > 0) yield JSON.stringify(batch);
}

/** Sends one bulk body to the gateway at `base`; throws unless every entity was created. */
export async function sendBatch(base: string, token: string, body: string): Promise<void> {
  const res = await fetch(`${base}/v4/entity/products/_bulk`, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body });
  const answer = (await res.json()) as { status: number; result?: { errors?: unknown[] } };
  if (answer.status !== 200 || (answer.result?.errors?.length ?? 0) > 0) throw new Error(`bulk load failed: ${JSON.stringify(answer).slice(0, 300)}`);
}
