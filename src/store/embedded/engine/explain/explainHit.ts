/**
 * `explain: true`: each hit's `_explanation`, Lucene's Explanation tree of its score as
 * Elasticsearch 8 answers it (Weight.explain of each query, in Lucene 8.7's and 9's words, checked
 * against Lucene 8.7 in explainHit.test.ts):
 *
 * - TermQuery: "weight(name:france in 0) [PerFieldSimilarity], result of:" over BM25Similarity's
 *   "score(freq=1.0), computed as boost * idf * tf from:" (boost = query boost x 2.2, Elasticsearch's
 *   LegacyBM25Similarity), "idf, computed as log(1 + (N - n + 0.5) / (n + 0.5)) from:" (n, N) and
 *   "tf, computed as freq / (freq + k1 * (1 - b + b * dl / avgdl)) from:" (freq, k1, b, dl, avgdl;
 *   "dl, length of field (approximate)" past norm byte 39); a phrase the same with "idf, sum of:"
 *   and "phraseFreq=...";
 * - BooleanQuery "sum of:" its matching scoring clauses, each filter clause as "match on required
 *   clause, product of:" (0 "# clause", and the filter cached as a constant-score weight: 1 =
 *   its query); DisjunctionMaxQuery "max of:" or "max plus 0.3 times others of:";
 *   ConstantScoreQuery, MatchAllDocsQuery and the constant-score leaves: the query's text, `^boost`
 *   when it is not 1; function_score as FunctionScoreQuery explains (the sub-query's explanation,
 *   the functions' factor "min of:" it and maxBoost, combined by the boost mode), boosting the
 *   product of the positive query's score and the factor; CombinedFieldQuery (combined_fields)
 *   "weight(CombinedFieldQuery((body title^2.0)(fox)) in 3), result of:" over the same BM25
 *   explanation of its combined statistics, frequency ("termFreq=3.0") and length; IntervalQuery
 *   (intervals) "Saturation function on interval frequency, computed as w * S / (S + k) from:" its
 *   boost, the pivot 1 and the sloppy frequency; ToParentBlockJoinQuery (nested) as Lucene 9's
 *   BlockJoinScorer.explain: "Score based on 2 child docs in range from 0 to 1, using score mode
 *   Avg" over the best matching child's explanation (the worst's with Min), the range in the
 *   numbers of the nested field's own documents (nested/nestedDocs.ts), the hit's objects only.
 *
 * Every value is the score the search computes for that part of the query (evaluated once per
 * search and node, cached), so the root's value is the hit's `_score`. The caller's visibility
 * filter is not part of the tree: it is the caller's query that is explained (the filter does not
 * change scores), so an explanation never shows the tenant clause or what it holds.
 */
import { Explanation } from '../../../port';
import { InvertedIndex } from '../invertedIndex';
import { evaluate, leafDocs } from '../lucene/evaluate';
import { Matches, advance } from '../lucene/matches';
import { combinedFieldScorer, combinedFreq, combinedNorm } from '../lucene/combinedField';
import { CombinedFieldQuery, FunctionScoreQuery, IntervalsQuery, LQuery, NestedQuery, PhraseQuery, TermQuery } from '../lucene/query';
import { descendantsOf, nestedLevels } from '../lucene/blockJoin';
import { bindIntervals, matchesDoc, sloppyFreq } from '../lucene/intervalQuery';
import { UNLIMITED, runToEnd } from '../budget/budget';
import { functionScores } from '../lucene/functionScore';
import { rewrite } from '../lucene/rewrite';
import { floatToJson } from '../fieldValues';
import { B, BM25Scorer, K1, LEGACY_BOOST_FACTOR, LENGTH_TABLE, avgFieldLength, idf, legacyBm25Scorer } from '../similarity';
import { FREQ_OVERFLOW_MARK } from '../termPostings';
import { positionalMatches } from '../lucene/multiPhrase';
import { javaFloat, luceneString } from './luceneString';

const f = Math.fround;

const node = (value: number, description: string, details: Explanation[] = []): Explanation => ({ value: floatToJson(value), description, details });

/** Explains hits of one search: node evaluations are shared between its hits. */
export class Explainer {
  private readonly evaluated = new Map<LQuery, Map<number, Matches | null>>();
  readonly query: LQuery;

  constructor(
    main: LQuery,
    private readonly index: InvertedIndex,
  ) {
    this.query = rewrite(main);
  }

  explain(doc: number): Explanation {
    return this.node(this.query, 1, doc) ?? node(0, 'no match');
  }

  /** The explanation of `doc` for the query under `boost`, null when it does not match (a nested query's children). */
  explainMatch(doc: number, boost: number): Explanation | null {
    return this.node(this.query, boost, doc);
  }

  /** The explainers of nested queries' child queries, over their nested fields' documents. */
  private readonly children = new Map<NestedQuery, Explainer | null>();

  /** The score of `doc` for `query` under `boost`, as the search computes it; null when it does not match. */
  private scoreOf(query: LQuery, boost: number, doc: number): number | null {
    let byBoost = this.evaluated.get(query);
    if (byBoost === undefined) this.evaluated.set(query, (byBoost = new Map()));
    let matches = byBoost.get(boost);
    if (matches === undefined) byBoost.set(boost, (matches = evaluate(query, this.index, boost, true)));
    return matches === null ? null : scoreIn(matches, doc);
  }

  private node(query: LQuery, boost: number, doc: number): Explanation | null {
    const score = this.scoreOf(query, boost, doc);
    if (score === null) return null;
    switch (query.type) {
      case 'term':
        return this.term(query, boost, doc) ?? node(score, luceneString(query));
      case 'phrase':
        return this.phrase(query, boost, doc) ?? node(score, luceneString(query));
      case 'multiPhrase':
        return node(score, `weight(${luceneString(query)} in ${doc}) [PerFieldSimilarity], result of:`);
      case 'boost':
        return this.node(query.query, f(query.boost * boost), doc);
      case 'disMax': {
        const subs = query.disjuncts.map((d) => this.node(d, boost, doc)).filter((e): e is Explanation => e !== null);
        return node(score, query.tieBreaker === 0 ? 'max of:' : `max plus ${javaFloat(query.tieBreaker)} times others of:`, subs);
      }
      case 'bool': {
        const subs: Explanation[] = [];
        for (const clause of query.clauses) {
          if (clause.occur === 'must_not') continue;
          if (clause.occur === 'filter') {
            if (this.scoreOf(clause.query, 1, doc) === null) continue;
            subs.push(node(0, 'match on required clause, product of:', [node(0, '# clause'), node(1, luceneString(clause.query))]));
            continue;
          }
          const sub = this.node(clause.query, boost, doc);
          if (sub !== null) subs.push(sub);
        }
        return node(score, 'sum of:', subs);
      }
      case 'functionScore':
        return this.functionScore(query, boost, doc, score);
      case 'combinedField':
        return this.combinedField(query, boost, doc) ?? node(score, luceneString(query));
      case 'intervals':
        return this.intervals(query, boost, doc, score);
      case 'nested':
        return this.nested(query, boost, doc, score);
      case 'leaf':
        if (!leafDocs(query, this.index).has(doc) && query.expand === undefined) return null;
        return node(score, luceneString(query) + (boost === 1 ? '' : `^${javaFloat(boost)}`));
      default:
        return node(score, luceneString(query) + (boost === 1 ? '' : `^${javaFloat(boost)}`));
    }
  }

  /** BlockJoinScorer.explain: how many of the hit's descendants (at the query's level) match, and the best one's explanation (the worst's with Min). */
  private nested(query: NestedQuery, boost: number, doc: number, score: number): Explanation {
    const levels = nestedLevels(this.index, query.chain);
    let children = this.children.get(query);
    if (children === undefined) this.children.set(query, (children = levels === null ? null : new Explainer(query.query, levels[levels.length - 1].index)));
    const mode = { avg: 'Avg', max: 'Max', min: 'Min', sum: 'Total', none: 'None' }[query.scoreMode];
    if (levels === null || children === null) return node(score, luceneString(query));
    const { first, end } = descendantsOf(levels, doc);
    let matches = 0;
    let chosen: Explanation | null = null;
    for (let child = first; child < end; child++) {
      const explained = children.explainMatch(child, boost);
      if (explained === null) continue;
      matches++;
      if (chosen === null || (query.scoreMode === 'min' ? explained.value < chosen.value : explained.value > chosen.value)) chosen = explained;
    }
    return node(score, `Score based on ${matches} child docs in range from ${first} to ${end - 1}, using score mode ${mode}`, chosen === null ? [] : [chosen]);
  }

  /** FunctionScoreQuery's explanation: the sub-query's, then the factor capped at max_boost, combined (CombineFunction.explain). */
  private functionScore(query: FunctionScoreQuery, boost: number, doc: number, score: number): Explanation | null {
    const sub = this.node(query.query, query.boostOutside ? 1 : boost, doc);
    if (sub === null || query.functions.length === 0) return sub;
    // the factor alone: the document's functions over a sub-query score of 1, replaced
    const one = Matches.list(Int32Array.of(doc), 1, Float32Array.of(1));
    const filters = query.functions.map((fn) => (fn.filter === null ? null : this.scoreOf(fn.filter, 1, doc) === null ? Matches.EMPTY : one));
    const factorOnly: FunctionScoreQuery = { ...query, boostMode: 'replace', maxBoost: Number.MAX_VALUE, minScore: null, boostOutside: false };
    const factor = functionScores(factorOnly, this.index, one, filters, 1, true).scoreAt(0);
    const applied = query.functions.filter((_, i) => filters[i] !== Matches.EMPTY).map((fn) => node(factor, fn.text));
    const factorNode = node(factor, applied.length === 0 ? 'No function matched' : `function score, score mode [${query.scoreMode}]`, applied);
    if (query.boostOutside) return node(score, 'product of:', [sub, factorNode]);
    const capped = node(Math.min(factor, query.maxBoost), 'min of:', [factorNode, node(query.maxBoost, 'maxBoost')]);
    const words = { multiply: 'function score, product of:', replace: 'min of:', sum: 'sum of', avg: 'avg of', min: 'min of', max: 'max of:' } as const;
    return query.boostMode === 'replace' ? node(score, 'min of:', [factorNode, node(query.maxBoost, 'maxBoost')]) : node(score, words[query.boostMode], [sub, capped]);
  }

  /** CombinedFieldWeight.explain: the similarity's explanation of the combined frequency ("termFreq=") and norm. */
  private combinedField(query: CombinedFieldQuery, boost: number, doc: number): Explanation | null {
    const found = combinedFieldScorer(query, this.index, boost);
    if (found === null) return null;
    const { scorer, docFreq, stats } = found;
    const freq = combinedFreq(query, this.index, doc);
    const norm = combinedNorm(query, this.index, doc);
    const idfNode = node(idf(docFreq, stats.docCount), 'idf, computed as log(1 + (N - n + 0.5) / (n + 0.5)) from:', [
      node(docFreq, 'n, number of documents containing term'),
      node(stats.docCount, 'N, total number of documents with field'),
    ]);
    const freqNode = node(freq, `termFreq=${javaFloat(freq)}`);
    return node(scorer.score(freq, norm), `weight(${luceneString(query)} in ${doc}), result of:`, [bm25(scorer, boost, idfNode, freqNode, freq, norm, avgFieldLength(stats))]);
  }

  /** IntervalWeight.explain: the saturation function of the document's sloppy frequency (IntervalScoreFunction.explain). */
  private intervals(query: IntervalsQuery, boost: number, doc: number, score: number): Explanation {
    const bound = runToEnd(bindIntervals(query, this.index, UNLIMITED));
    const freq = bound !== null && matchesDoc(bound, doc) ? sloppyFreq(bound.top, bound.minExtent) : 0;
    return node(score, 'Saturation function on interval frequency, computed as w * S / (S + k) from:', [
      node(boost, 'w, weight of this function'),
      node(1, 'k, pivot feature value that would give a score contribution equal to w/2'),
      node(freq, `S, the sloppy frequency of the interval query ${luceneString(query)}`),
    ]);
  }

  private term(query: TermQuery, boost: number, doc: number): Explanation | null {
    const field = this.index.field(query.field);
    const t = field === undefined ? -1 : field.termId(query.term);
    if (field === undefined || t < 0 || field.terms === null) return null;
    const docs = field.terms.docs(t);
    const at = advance(docs, 0, docs.length, doc);
    if (at >= docs.length || docs[at] !== doc) return null;
    const freqs = field.terms.freqs(t);
    let freq = freqs === null ? 1 : freqs[at];
    if (freq === FREQ_OVERFLOW_MARK) freq = field.freq(t, doc, freq);
    const norm = field.norm(doc);
    const stats = field.collectionStats();
    const n = query.docFreq ?? field.terms.df[t];
    const scorer = legacyBm25Scorer(boost, stats, [n]);
    const idfNode = node(idf(n, stats.docCount), 'idf, computed as log(1 + (N - n + 0.5) / (n + 0.5)) from:', [
      node(n, 'n, number of documents containing term'),
      node(stats.docCount, 'N, total number of documents with field'),
    ]);
    const freqNode = node(freq, 'freq, occurrences of term within document');
    return node(scorer.score(freq, norm), `weight(${luceneString(query)} in ${doc}) [PerFieldSimilarity], result of:`, [bm25(scorer, boost, idfNode, freqNode, freq, norm, avgFieldLength(stats))]);
  }

  private phrase(query: PhraseQuery, boost: number, doc: number): Explanation | null {
    const field = this.index.field(query.field);
    if (field === undefined || field.terms === null) return null;
    const ids = query.terms.map((term) => field.termId(term));
    if (ids.some((t) => t < 0)) return null;
    const stats = field.collectionStats();
    const dfs = ids.map((t) => (field.terms as NonNullable<typeof field.terms>).df[t]);
    const scorer = legacyBm25Scorer(boost, stats, dfs);
    // the phrase frequency of the document, as the phrase matcher computes it
    const freqs: number[] = [];
    const recording = { weight: scorer.weight, score: (freq: number, norm: number) => (freqs.push(freq), scorer.score(freq, norm)) } as unknown as BM25Scorer;
    const matches = positionalMatches(field, { ids: ids.map((t) => [t]), offsets: query.positions, terms: query.terms, slop: query.slop }, recording);
    const docs = matches.docs as Int32Array;
    const at = advance(docs, 0, matches.size, doc);
    if (at >= matches.size || docs[at] !== doc) return null;
    const freq = freqs[at];
    const idfNode = node(
      f(dfs.reduce((sum, df) => sum + idf(df, stats.docCount), 0)),
      'idf, sum of:',
      dfs.map((df) => node(idf(df, stats.docCount), 'idf, computed as log(1 + (N - n + 0.5) / (n + 0.5)) from:', [node(df, 'n, number of documents containing term'), node(stats.docCount, 'N, total number of documents with field')])),
    );
    const norm = field.norm(doc);
    return node(scorer.score(freq, norm), `weight(${luceneString(query)} in ${doc}) [PerFieldSimilarity], result of:`, [bm25(scorer, boost, idfNode, node(freq, `phraseFreq=${javaFloat(freq)}`), freq, norm, avgFieldLength(stats))]);
  }
}

/** BM25Similarity's explanation of one score (BM25Scorer.explain, explainTF). */
function bm25(scorer: BM25Scorer, boost: number, idfNode: Explanation, freqNode: Explanation, freq: number, norm: number, avgdl: number): Explanation {
  const dl = LENGTH_TABLE[norm & 0xff];
  const normValue = f(K1 * f(f(1 - B) + f(f(B * dl) / avgdl)));
  const tf = f(freq / (freq + normValue));
  const tfNode = node(tf, 'tf, computed as freq / (freq + k1 * (1 - b + b * dl / avgdl)) from:', [
    freqNode,
    node(K1, 'k1, term saturation parameter'),
    node(B, 'b, length normalization parameter'),
    node(dl, (norm & 0xff) > 39 ? 'dl, length of field (approximate)' : 'dl, length of field'),
    node(avgdl, 'avgdl, average length of field'),
  ]);
  const details = [node(f(boost * LEGACY_BOOST_FACTOR), 'boost'), idfNode, tfNode];
  return node(scorer.score(freq, norm), `score(freq=${javaFloat(freq)}), computed as boost * idf * tf from:`, details);
}

/** The score of a document in matches (null: not there). */
function scoreIn(matches: Matches, doc: number): number | null {
  if (matches.bits !== null) return matches.has(doc) ? matches.constant : null;
  const docs = matches.docs as Int32Array;
  const at = advance(docs, 0, matches.size, doc);
  return at < matches.size && docs[at] === doc ? matches.scoreAt(at) : null;
}
