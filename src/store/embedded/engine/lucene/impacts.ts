/**
 * Score bounds per block of a term's postings (Lucene's impacts, reduced to one pair per block):
 * for every BLOCK postings, the largest frequency and the smallest norm byte. BM25 grows with the
 * frequency and falls with the length, so score(maxFreq, minNorm) bounds every score in the block,
 * and a block whose bound cannot beat the worst of the top hits kept is skipped whole.
 *
 * Computed when a query first needs them and kept per field and term; postings only grow at their
 * end (tombstones keep their place), so a longer list only needs its last blocks recomputed.
 */
import { FieldIndex } from '../fieldIndex';
import { TermPostings } from '../termPostings';

export const BLOCK = 32;

export interface Impacts {
  /** Postings covered. */
  len: number;
  maxFreq: Int32Array;
  minNorm: Uint8Array;
}

const byField = new WeakMap<FieldIndex, Map<number, Impacts>>();

/** The impacts of term `t` of a text field (with frequencies and norms), up to date. */
export function impactsOf(field: FieldIndex, t: number): Impacts {
  let perTerm = byField.get(field);
  if (perTerm === undefined) byField.set(field, (perTerm = new Map()));
  field.refresh();
  const terms = field.terms as TermPostings;
  const len = terms.len[t];
  const cached = perTerm.get(t);
  if (cached !== undefined && cached.len === len) return cached;
  const blocks = Math.ceil(len / BLOCK);
  const maxFreq = new Int32Array(blocks);
  const minNorm = new Uint8Array(blocks);
  // blocks complete in the cached version did not change
  const firstToCompute = cached === undefined ? 0 : Math.floor(cached.len / BLOCK);
  if (cached !== undefined) {
    maxFreq.set(cached.maxFreq.subarray(0, firstToCompute));
    minNorm.set(cached.minNorm.subarray(0, firstToCompute));
  }
  const docs = terms.docs(t);
  const freqs = terms.freqs(t) as Uint8Array;
  const norms = field.norms;
  for (let b = firstToCompute; b < blocks; b++) {
    let fmax = 0;
    let nmin = 255;
    for (let i = b * BLOCK, end = Math.min(len, i + BLOCK); i < end; i++) {
      const freq = field.freq(t, docs[i], freqs[i]);
      if (freq > fmax) fmax = freq;
      const norm = norms[docs[i]];
      if (norm < nmin) nmin = norm;
    }
    maxFreq[b] = fmax;
    minNorm[b] = nmin;
  }
  const impacts = { len, maxFreq, minNorm };
  if (perTerm.size > 1024) perTerm.clear();
  perTerm.set(t, impacts);
  return impacts;
}
