/**
 * Elasticsearch's BlendedTermQuery.dismaxBlendedQuery (org.elasticsearch.lucene.queries; not
 * Lucene's own org.apache.lucene.search.BlendedTermQuery, which gives every field the largest
 * document frequency, uncapped, without Elasticsearch's bias): one term looked for in several fields
 * (multi_match cross_fields), scored as if the fields were one. At search time (its rewrite) the
 * term's document frequencies in the fields are blended (`blend`), and the query becomes a
 * DisjunctionMaxQuery (tie_breaker) of a TermQuery per field scored with the blended frequency,
 * boosted by the field's boost.
 *
 * blend, ported from BlendedTermQuery.blend: with one field, nothing changes. Else, with `max` the
 * largest document frequency of the term over the fields and `maxDoc` the index's documents (capped
 * at the smallest sumTotalTermFreq of the fields holding the term), the fields are taken from the
 * most to the least frequent (a stable sort); the first gets min(maxDoc, max), and each strictly
 * less frequent one after it one more than the one before (a slight bias toward the fields where
 * the term is common), each capped at its field's docCount and at maxDoc. Fields without the term
 * stay without it. (Blend also adjusts total term frequencies, which BM25 does not read.)
 * The statistics are those of the live documents, as everywhere in the engine (Elasticsearch's
 * maxDoc and frequencies equal them on a merged index).
 */
import { InvertedIndex } from '../invertedIndex';
import { evaluate } from '../lucene/evaluate';
import { LQuery, LeafQuery, disMax, termQuery, withBoost } from '../lucene/query';

export interface BlendedField {
  readonly field: string;
  readonly boost: number;
}

/** A field's statistics for one term, as blend reads them. */
export interface TermFieldStats {
  /** The term's document frequency in the field (0: absent). */
  readonly docFreq: number;
  /** Documents having the field. */
  readonly docCount: number;
  /** The field's sum of term frequencies. */
  readonly sumTotalTermFreq: number;
}

/** BlendedTermQuery.blend: the document frequency each field's TermQuery scores with (the same array when nothing changes). */
export function blendDocFreqs(stats: readonly TermFieldStats[], maxDoc: number): number[] {
  const docFreqs = stats.map((s) => s.docFreq);
  if (stats.length <= 1) return docFreqs;
  let max = 0;
  let minSumTTF = Infinity;
  for (const s of stats) {
    max = Math.max(max, s.docFreq);
    if (s.docFreq > 0) minSumTTF = Math.min(minSumTTF, s.sumTotalTermFreq);
  }
  if (maxDoc > minSumTTF) maxDoc = minSumTTF;
  if (max === 0) return docFreqs;
  const order = stats.map((_, i) => i).sort((a, b) => stats[b].docFreq - stats[a].docFreq); // stable, as InPlaceMergeSorter
  let prev = stats[order[0]].docFreq;
  let actualDf = Math.min(maxDoc, max);
  for (const i of order) {
    const current = stats[i].docFreq;
    if (current === 0) break;
    if (prev > current) actualDf++;
    docFreqs[i] = Math.min(actualDf, stats[i].docCount, maxDoc);
    prev = current;
  }
  return docFreqs;
}

/** The rewritten query: a TermQuery per field, with the blended frequencies, in a DisjunctionMaxQuery. */
function blended(index: InvertedIndex, term: string, fields: readonly BlendedField[], tieBreaker: number): LQuery {
  const stats = fields.map(({ field }): TermFieldStats => {
    const f = index.field(field);
    const t = f === undefined ? -1 : f.termId(term);
    return { docFreq: t < 0 ? 0 : f!.terms!.df[t], docCount: f?.docCount ?? 0, sumTotalTermFreq: f?.sumTotalTermFreq ?? 0 };
  });
  const docFreqs = blendDocFreqs(stats, index.size);
  const queries = fields.map(({ field, boost }, i) => withBoost(termQuery(field, term, docFreqs[i] > 0 && fields.length > 1 ? docFreqs[i] : undefined), boost));
  return disMax(queries, tieBreaker);
}

/** BlendedTermQuery.dismaxBlendedQuery over `fields` (their boosts applied to each field's TermQuery). */
export function blendedTermQuery(term: string, fields: readonly BlendedField[], tieBreaker: number): LeafQuery {
  const expand = (index: InvertedIndex) => blended(index, term, fields, tieBreaker);
  return {
    type: 'leaf',
    key: `blended:${JSON.stringify([term, fields.map((f) => [f.field, f.boost]), Math.fround(tieBreaker)])}`,
    docs: (index) => evaluate(expand(index), index, 1, false)?.docList() ?? [],
    expand,
  };
}
