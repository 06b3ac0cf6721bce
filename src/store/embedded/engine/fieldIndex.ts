/**
 * The index of one field, with what Lucene keeps for it in Elasticsearch's mapping:
 *
 * - text: terms with frequencies (postings, see termPostings.ts), the token stream of each document
 *   (term ids in position order, for phrase positions; position_increment_gap 100 between the values
 *   of a multi-valued field, a HOLE for each position a removed stop word left empty), one norm byte
 *   per document (SmallFloat of the number of tokens: holes do not count, as Lucene's
 *   FieldInvertState.length); the terms are the field's analyzer's (`analyzer`: standard unless the
 *   mapping names another);
 * - keyword and boolean: terms without frequencies or norms (index_options docs), doc values
 *   (keyword: the sorted set of distinct terms; boolean: 0/1) for sorting;
 * - long, float, date: "points" (one posting list per distinct value, and the values in order for
 *   ranges) for term and range queries, and sorted numeric doc values (duplicates kept) for sorting.
 *
 * Documents are added in increasing number order. Adding one records its terms in its token stream
 * and updates the statistics; its postings are written in batches (`refresh`: every REFRESH_DOCS
 * documents or REFRESH_TOKENS tokens, and before anything reads the postings), as Lucene buffers
 * documents and flushes them (IndexWriter's RAM buffer).
 * Term ids come from a hash of the text itself on the ASCII fast path (no string per token).
 *
 * Statistics (docCount, sumTotalTermFreq,
 * sumDocFreq, docFreq) are those of the live documents: a removed or replaced document stops
 * counting at once. Its postings stay as tombstones (readers skip documents not in `present`) until
 * the owning index is compacted. Elasticsearch keeps counting deleted documents until their segment
 * is merged, so its scores drift after updates; we choose exact statistics, which equal
 * Elasticsearch's on a freshly indexed (or force-merged) index.
 */
import { TokenBounds, analyzeText, scanAscii } from './analyzer';
import { Analyzer, STANDARD } from './analysis/analyzers';
import { Bitset, hasBit } from './bitset';
import { FieldType, booleanTerm } from './fieldValues';
import { ForwardIndex, TermIds } from './forwardIndex';
import { EMPTY_FLOAT64, EMPTY_INT8, EMPTY_UINT8, grow } from './growable';
import { CollectionStats } from './similarity';
import { intToByte4 } from './smallFloat';
import { SortedKeys } from './sortedKeys';
import { SortedTerms } from './sortedTerms';
import { Budget, Steps } from './budget/budget';
import { compareUtf8 } from './strings';
import { TermHash } from './termHash';
import { FREQ_OVERFLOW_MARK, TermPostings } from './termPostings';
import { NumberHash } from './numberHash';
import type { StateReader, StateWriter } from './persist/state';
import type { SpillTarget } from './persist/diskFile';
import { analyzerNamed } from './mapping';

/** Positions of a term in a document (empty for fields indexed without positions). */
export type Positions = number[];

/** term -> (document -> positions), documents in ascending order (a copy, for inspection). */
export type Postings = Map<number, Positions>;

export const POSITION_INCREMENT_GAP = 100;

/** Marks the boundary between two values in a text field's token stream. */
export const GAP = -1;

/** A position without a term in a text field's token stream (a stop word the analyzer removed). */
export const HOLE = -2;

const compareNumbers = (a: number, b: number) => a - b;

const BOUNDS: TokenBounds = { data: new Int32Array(96), whole: 0 };

/**
 * The last text value scanned and its whole-value hash: the keyword sub-field of a text field gets
 * the same value right after, and finds its term without hashing it again.
 */
let lastScanned: string | null = null;
let lastHash = 0;

/** A text value of at most this many tokens is remembered with its term ids (FieldIndex.repeatText). */
const REPEAT_MAX_TOKENS = 16;

/** Documents added to a field before their postings are written in one batch. */
const REFRESH_DOCS = 4096;

/**
 * Tokens added to a field before their postings are written in one batch, however few documents
 * hold them: what `refresh` costs grows with the tokens, and the first search to read the postings
 * pays for the batch at once, unsliced. Four descriptions of 500,000 characters (bench:abuse's books)
 * left about 350,000 tokens for the first search on them, which held the event loop 36-39 ms under
 * bench:abuse; past this many the write that adds them inverts them, beside its own analysis of
 * them, which costs more. 4,096 documents of 16 tokens.
 */
export const REFRESH_TOKENS = 65_536;

/** Scratch for refresh (shared: one field refreshes at a time), indexed by term id. */
let COUNTS = new Int32Array(1024);
let STAMPS = new Int32Array(1024);
let TOUCHED = new Int32Array(1024);

export class FieldIndex {
  /** Live documents where the field exists (what the `exists` query matches). */
  readonly present = new Bitset(0);
  /** text, keyword, boolean: the terms and their postings. */
  readonly terms: TermPostings<string> | null;
  /** long, float, date: one posting list per distinct value. */
  readonly points: TermPostings<number> | null;
  /** long, float, date: the distinct values in order. */
  readonly pointKeys: SortedKeys | null;
  /** text: term ids in position order (GAP between values); keyword, boolean: sorted distinct term ids. */
  readonly tokens: ForwardIndex<TermIds> | null;
  /** long, float, date, boolean: sorted values per document. */
  readonly values: ForwardIndex<Float64Array> | null;
  /** text: norm byte per document (0 when the field is present without tokens). */
  norms: Uint8Array;
  /** Smallest norm byte of a live document ever added (an upper bound for scores). */
  minNorm = 255;
  /** Documents removed since they were added (their postings are tombstones). */
  deleted = 0;
  /** long, float, date: live documents with more than one value (none: a value's points are the documents that sort by it). */
  multiValued = 0;

  /** Number of documents with at least one term. */
  docCount = 0;
  /** text: total number of tokens; docs-only fields: same as sumDocFreq (as Lucene reports it). */
  sumTotalTermFreq = 0;
  private docFreqSum = 0;
  /** Documents numbered from here on are not in the postings yet (see refresh). */
  private invertedTo = 0;
  private pendingDocs = 0;
  private pendingTokens = 0;

  private stamp: Int32Array | null = null;
  /** Values of the document being added (collected by the owning index). */
  readonly pending: (string | number | boolean)[] = [];
  pendingCount = 0;
  /** Its number in the owning index (order of creation), set by the index. */
  ordinal = -1;

  constructor(
    readonly name: string,
    readonly type: FieldType,
    /** text: the analyzer of its values (the mapping's `analyzer`), fixed for the field's life. */
    readonly analyzer: Analyzer = STANDARD,
    /** Where the tails of its long terms go (TermHash: its index's spill file); none: in memory. */
    spill?: SpillTarget,
    /** Its dictionary when shared (the index's id keys: InvertedIndex.keyTerms); none: its own. */
    dict?: TermHash,
  ) {
    const numeric = type === 'long' || type === 'float' || type === 'double' || type === 'date';
    this.terms = numeric ? null : new TermPostings<string>(type === 'text', dict ?? new TermHash(spill));
    this.points = numeric ? new TermPostings<number>(false, new NumberHash()) : null;
    this.pointKeys = numeric ? new SortedKeys() : null;
    this.tokens = numeric ? null : new ForwardIndex<TermIds>(EMPTY_INT8);
    this.values = numeric || type === 'boolean' ? new ForwardIndex(EMPTY_FLOAT64) : null;
    this.norms = EMPTY_UINT8;
  }

  get hasNorms(): boolean {
    return this.type === 'text';
  }

  get isNumeric(): boolean {
    return this.points !== null;
  }

  /**
   * long, float, date, boolean: the smallest and largest value ever indexed (those of removed
   * documents included: bounds, not statistics), or null when there is none.
   */
  valueRange(): readonly [number, number] | null {
    if (this.pointKeys !== null) {
      const values = this.pointKeys.values();
      return values.length === 0 ? null : [values[0], values[values.length - 1]];
    }
    return this.type === 'boolean' && this.docCount > 0 ? [0, 1] : null;
  }

  collectionStats(): CollectionStats {
    return { docCount: this.docCount, sumTotalTermFreq: this.sumTotalTermFreq };
  }

  private sorted: SortedTerms | null = null;

  /** text, keyword, boolean: the terms in UTF-8 order (sortedTerms.ts), postings and order brought up to date. */
  sortedTerms(): SortedTerms {
    const sorted = this.sortedView();
    sorted.refresh();
    return sorted;
  }

  /** The same within a search's budget (the first sort of a large dictionary takes a while). */
  *sortedTermsSteps(budget: Budget): Steps<SortedTerms> {
    const sorted = this.sortedView();
    yield* sorted.refreshSteps(budget);
    return sorted;
  }

  private sortedView(): SortedTerms {
    const terms = this.terms;
    if (terms === null) throw new Error(`internal: field ${this.name} has no terms`);
    this.refresh();
    return (this.sorted ??= new SortedTerms(terms.dict as TermHash));
  }

  /** The id of a term some live document has, or -1 (the postings are brought up to date first). */
  termId(term: string): number {
    const terms = this.terms;
    if (terms === null) return -1;
    this.refresh();
    const t = terms.id(term);
    return t >= 0 && terms.df[t] > 0 ? t : -1;
  }

  /** text, keyword, boolean: sum of document frequencies (live). */
  get sumDocFreq(): number {
    this.refresh();
    return this.docFreqSum;
  }

  /**
   * Invert the documents added since the last call into the postings: count each term's new
   * postings, make room once per term, then append them (Lucene buffers and flushes likewise).
   * Readers of the postings call this first (termId does), so they always see every document.
   */
  refresh(): void {
    const terms = this.terms;
    const tokens = this.tokens;
    if (terms === null || tokens === null) return;
    const from = this.invertedTo;
    const to = tokens.size;
    if (from >= to) return;
    this.invertedTo = to;
    this.pendingDocs = 0;
    this.pendingTokens = 0;
    const n = terms.size;
    if (COUNTS.length < n) {
      COUNTS = grow(COUNTS, n);
      STAMPS = grow(STAMPS, n);
    }
    const counts = COUNTS;
    const stamps = STAMPS;
    const present = this.present.words;
    const entries = tokens.entries;
    const text = this.type === 'text';
    let touched = TOUCHED;
    let nTouched = 0;
    for (let doc = from; doc < to; doc++) {
      const end = tokens.to(doc);
      if (end === tokens.from(doc) || !hasBit(present, doc)) continue;
      for (let i = tokens.from(doc); i < end; i++) {
        const t = entries[i];
        if (t < 0) continue; // GAP, HOLE
        if (text) {
          if (stamps[t] === doc + 1) continue;
          stamps[t] = doc + 1;
        }
        if (counts[t]++ === 0) {
          if (nTouched === touched.length) touched = TOUCHED = grow(touched, nTouched + 1);
          touched[nTouched++] = t;
        }
      }
    }
    for (let k = 0; k < nTouched; k++) {
      const t = touched[k];
      terms.reserve(t, counts[t]);
      counts[t] = 0;
    }
    let added = 0;
    for (let doc = from; doc < to; doc++) {
      const end = tokens.to(doc);
      if (end === tokens.from(doc) || !hasBit(present, doc)) continue;
      for (let i = tokens.from(doc); i < end; i++) {
        const t = entries[i];
        if (t < 0) continue; // GAP, HOLE
        if (!text) {
          terms.push(t, doc);
          added++;
        } else if (stamps[t] !== -(doc + 1)) {
          stamps[t] = -(doc + 1);
          terms.push(t, doc);
          added++;
        } else {
          terms.bumpFreq(t, doc);
        }
      }
    }
    if (text) for (let k = 0; k < nTouched; k++) stamps[touched[k]] = 0;
    this.docFreqSum += added;
  }

  docFreq(term: string): number {
    const t = this.termId(term);
    return t < 0 ? 0 : (this.terms as TermPostings).df[t];
  }

  /** Norm byte of a document for scoring: 1 for fields without norms (LeafSimScorer's default). */
  norm(doc: number): number {
    return this.hasNorms ? (doc < this.norms.length ? this.norms[doc] : 0) : 1;
  }

  add(doc: number, values: readonly (string | number | boolean)[]): void {
    switch (this.type) {
      case 'text':
        this.addText(doc, values as string[]);
        break;
      case 'keyword':
        this.addTerms(doc, values.length === 1 ? (values as string[]) : [...new Set(values as string[])].sort(compareUtf8));
        break;
      case 'boolean': {
        const bools = values as boolean[];
        if (bools.length === 0) return;
        this.addTerms(doc, [...new Set(bools.map(booleanTerm))].sort(compareUtf8));
        this.addValues(doc, bools.map((b) => (b ? 1 : 0)));
        break;
      }
      default:
        this.addNumbers(doc, values as number[]);
    }
  }

  private addText(doc: number, values: string[]): void {
    const terms = this.terms as TermPostings;
    const tokens = this.tokens as ForwardIndex<TermIds>;
    tokens.begin(doc);
    let length = 0;
    const dict = terms.dict as TermHash;
    for (let v = 0; v < values.length; v++) {
      if (v > 0) tokens.push(GAP);
      const text = values[v];
      if (this.analyzer !== STANDARD) {
        length += this.addAnalyzed(text);
        continue;
      }
      if (text === this.repeatText) {
        // the value the last document had here (a bulk write's author, its modifier): its term ids again
        const ids = this.repeatIds;
        const count = this.repeatCount;
        const entries = tokens.room(count);
        let at = tokens.length;
        for (let i = 0; i < count; i++) entries[at++] = ids[i];
        tokens.commit(at);
        length += count;
        continue;
      }
      const count = scanAscii(text, BOUNDS);
      if (count >= 0) {
        lastScanned = text;
        lastHash = BOUNDS.whole;
        // ASCII fast path: terms found from the text directly, written straight into the token stream
        const bounds = BOUNDS.data;
        tokens.fit(dict.size + count); // (the largest id this value may add)
        const entries = tokens.room(count);
        let at = tokens.length;
        let known = dict.size;
        for (let i = 0; i < count; i++) {
          const t = dict.internHashed(text, bounds[4 * i], bounds[4 * i + 1], bounds[4 * i + 2] === 1, bounds[4 * i + 3]);
          if (t >= known) {
            terms.ensure(t);
            known = t + 1;
          }
          entries[at++] = t;
        }
        tokens.commit(at);
        length += count;
        if (count <= REPEAT_MAX_TOKENS) this.remember(text, entries, at - count, count);
        continue;
      }
      const analyzed = analyzeText(text);
      for (let i = 0; i < analyzed.length; i++) tokens.push(terms.intern(analyzed[i]));
      length += analyzed.length;
    }
    this.present.add(doc);
    if (doc >= this.norms.length) this.norms = grow(this.norms, doc + 1);
    const norm = length === 0 ? 0 : intToByte4(length);
    this.norms[doc] = norm;
    if (length === 0) return;
    if (norm < this.minNorm) this.minNorm = norm;
    this.docCount += 1;
    this.sumTotalTermFreq += length;
    this.added(length);
  }

  /** A document of `tokens` tokens was added: its postings wait for the batch (see refresh), unless the batch is large enough. */
  private added(tokens: number): void {
    this.pendingTokens += tokens;
    if (++this.pendingDocs >= REFRESH_DOCS || this.pendingTokens >= REFRESH_TOKENS) this.refresh();
  }

  /** The last value analyzed on the ASCII fast path (of at most REPEAT_MAX_TOKENS tokens) and its term ids: documents written together often repeat a value. */
  private repeatText: string | null = null;
  private repeatIds = new Int32Array(REPEAT_MAX_TOKENS);
  private repeatCount = 0;

  private remember(text: string, entries: TermIds, from: number, count: number): void {
    for (let i = 0; i < count; i++) this.repeatIds[i] = entries[from + i];
    this.repeatCount = count;
    this.repeatText = text;
  }

  /** One value's tokens by the field's (non-standard) analyzer, a HOLE where a removed token left a position empty; returns how many tokens. */
  private addAnalyzed(text: string): number {
    const terms = this.terms as TermPostings;
    const tokens = this.tokens as ForwardIndex<TermIds>;
    const analyzed = this.analyzer.tokens(text);
    for (let i = 0; i < analyzed.length; i++) {
      for (let skipped = analyzed[i].positionIncrement - 1; skipped > 0; skipped--) tokens.push(HOLE);
      tokens.push(terms.intern(analyzed[i].term));
    }
    return analyzed.length;
  }

  /** keyword, boolean: the last term added and its id (ids never change: the dictionary only grows). */
  private lastTerm: string | null = null;
  private lastTermId = -1;

  /** Distinct terms, already in UTF-8 order. */
  private addTerms(doc: number, sorted: readonly string[]): void {
    if (sorted.length === 0) return;
    const terms = this.terms as TermPostings;
    const tokens = this.tokens as ForwardIndex<TermIds>;
    tokens.begin(doc);
    const dict = terms.dict as TermHash;
    for (let i = 0; i < sorted.length; i++) {
      const term = sorted[i];
      let t: number;
      if (term === this.lastTerm) t = this.lastTermId; // (a value every document of a bulk write shares: entityType, the tenants, the author)
      else {
        t = term === lastScanned ? dict.internHashed(term, 0, term.length, false, lastHash) : dict.intern(term);
        terms.ensure(t);
        this.lastTerm = term;
        this.lastTermId = t;
      }
      tokens.push(t);
    }
    this.present.add(doc);
    this.docCount += 1;
    this.sumTotalTermFreq += sorted.length;
    this.added(sorted.length);
  }

  private addValues(doc: number, values: number[]): void {
    const forward = this.values as ForwardIndex<Float64Array>;
    forward.begin(doc);
    if (values.length > 1) values = [...values].sort(compareNumbers);
    for (let i = 0; i < values.length; i++) forward.push(values[i]);
  }

  private addNumbers(doc: number, values: number[]): void {
    if (values.length === 0) return;
    const points = this.points as TermPostings<number>;
    for (let i = 0; i < values.length; i++) {
      const size = points.size;
      const t = points.intern(values[i]);
      if (t === size) (this.pointKeys as SortedKeys).add(values[i], t);
      points.add(t, doc);
    }
    if (values.length > 1) this.multiValued++;
    this.addValues(doc, values);
    this.present.add(doc);
  }

  remove(doc: number): void {
    if (!this.present.delete(doc)) return;
    // a document not inverted yet never reaches the postings (refresh skips it)
    const inverted = this.points !== null || doc < this.invertedTo;
    if (inverted) this.deleted++;
    if (this.points !== null) {
      const forward = this.values as ForwardIndex<Float64Array>;
      const entries = forward.entries;
      if (forward.to(doc) - forward.from(doc) > 1) this.multiValued--;
      for (let i = forward.from(doc), end = forward.to(doc); i < end; i++) {
        if (i > forward.from(doc) && entries[i] === entries[i - 1]) continue; // sorted: duplicates are adjacent
        this.points.removeOne(this.points.id(entries[i]));
      }
      return;
    }
    const terms = this.terms as TermPostings;
    const tokens = this.tokens as ForwardIndex<TermIds>;
    const from = tokens.from(doc);
    const to = tokens.to(doc);
    if (this.type !== 'text') {
      if (to === from) return;
      if (inverted) {
        for (let i = from; i < to; i++) terms.removeOne(tokens.entries[i]);
        this.docFreqSum -= to - from;
      }
      this.docCount -= 1;
      this.sumTotalTermFreq -= to - from;
      return;
    }
    // text: distinct terms (a stamp per term marks those already seen in this document)
    const stamp = (this.stamp = grow(this.stamp ?? new Int32Array(terms.size), terms.size));
    let length = 0;
    let distinct = 0;
    for (let i = from; i < to; i++) {
      const t = tokens.entries[i];
      if (t < 0) continue; // GAP, HOLE
      length++;
      if (inverted && stamp[t] !== doc + 1) {
        stamp[t] = doc + 1;
        terms.removeOne(t);
        distinct++;
      }
    }
    if (length === 0) return;
    this.docCount -= 1;
    this.docFreqSum -= distinct;
    this.sumTotalTermFreq -= length;
  }

  /** Positions of term `t` in a document, from its token stream. */
  positionsOf(t: number, doc: number, out: number[] = []): number[] {
    out.length = 0;
    if (this.type !== 'text') return out;
    this.forEachPosition(doc, (e, position) => {
      if (e === t) out.push(position);
    });
    return out;
  }

  /** Each token of a text document with its position (POSITION_INCREMENT_GAP between values), in order. */
  forEachPosition(doc: number, visit: (t: number, position: number) => void): void {
    const tokens = this.tokens;
    if (tokens === null) return;
    const entries = tokens.entries;
    let position = -1;
    for (let i = tokens.from(doc), end = tokens.to(doc); i < end; i++) {
      const e = entries[i];
      if (e === GAP) {
        position += POSITION_INCREMENT_GAP;
        continue;
      }
      if (e === HOLE) {
        position += 1; // a stop word the analyzer removed
        continue;
      }
      position += 1;
      visit(e, position);
    }
  }

  /** Frequency of a posting read from `terms.freqs(t)`, resolving the overflow mark. */
  freq(t: number, doc: number, stored: number): number {
    return stored === FREQ_OVERFLOW_MARK ? (this.terms as TermPostings).overflowFreq(t, doc) : stored;
  }

  /** keyword: the smallest (or largest) term of a live document, in UTF-8 order. */
  keywordValue(doc: number, largest: boolean): string | undefined {
    const t = this.keywordTermId(doc, largest);
    return t < 0 ? undefined : (this.terms as TermPostings).term(t);
  }

  /** keyword: the id of keywordValue's term (a document's terms are kept in UTF-8 order), or -1 (none, or not a keyword field). */
  keywordTermId(doc: number, largest: boolean): number {
    if (this.type !== 'keyword') return -1;
    const tokens = this.tokens as ForwardIndex<TermIds>;
    const from = tokens.from(doc);
    const to = tokens.to(doc);
    if (to === from) return -1;
    return tokens.entries[largest ? to - 1 : from];
  }

  /** For the index file (persist/): every structure as it is, postings not yet inverted included. */
  writeState(w: StateWriter): void {
    w.json([this.name, this.type, this.analyzer.name, this.ordinal, this.minNorm, this.deleted, this.multiValued, this.docCount, this.sumTotalTermFreq, this.docFreqSum, this.invertedTo, this.pendingDocs, this.sorted === null ? -1 : 1]);
    this.present.writeState(w);
    if (this.terms !== null) {
      (this.terms.dict as TermHash).writeState(w);
      this.terms.writeState(w);
    }
    if (this.points !== null) {
      (this.points.dict as NumberHash).writeState(w);
      this.points.writeState(w);
    }
    this.pointKeys?.writeState(w);
    this.tokens?.writeState(w);
    this.values?.writeState(w);
    w.array(this.norms);
    this.sorted?.writeState(w);
  }

  /** A field as `writeState` wrote it (the tails of its new long terms spilled to `spill`, if given). */
  static readState(r: StateReader, spill?: SpillTarget): FieldIndex {
    const [name, type, analyzer, ordinal, minNorm, deleted, multiValued, docCount, sumTotalTermFreq, docFreqSum, invertedTo, pendingDocs, sorted] = r.json<[string, FieldType, string, ...number[]]>();
    const field = new FieldIndex(name, type, analyzerNamed(analyzer), spill);
    Object.assign(field, { ordinal, minNorm, deleted, multiValued, docCount, sumTotalTermFreq, docFreqSum, invertedTo, pendingDocs });
    field.present.readState(r);
    if (field.terms !== null) {
      (field.terms.dict as TermHash).readState(r);
      field.terms.readState(r);
    }
    if (field.points !== null) {
      (field.points.dict as NumberHash).readState(r);
      field.points.readState(r);
    }
    field.pointKeys?.readState(r);
    field.tokens?.readState(r);
    // the tokens of the documents past the last inversion wait as they did (not a figure of the file: its tokens from document invertedTo on)
    const tokens = field.tokens;
    field.pendingTokens = tokens === null || tokens.size <= invertedTo ? 0 : tokens.to(tokens.size - 1) - tokens.from(invertedTo);
    field.values?.readState(r);
    field.norms = r.uint8();
    if (sorted === 1) {
      field.sorted = new SortedTerms((field.terms as TermPostings).dict as TermHash);
      field.sorted.readState(r);
    }
    return field;
  }

  // ---- inspection (tests, diagnostics): copies, never used on the search path ----

  /** The live documents having a term, with the term's positions in each (empty without positions). */
  postings(term: string): Postings | undefined {
    const t = this.termId(term);
    if (t < 0) return undefined;
    const out: Postings = new Map();
    const docs = (this.terms as TermPostings).docs(t);
    for (let i = 0; i < docs.length; i++) {
      if (hasBit(this.present.words, docs[i])) out.set(docs[i], this.type === 'text' ? this.positionsOf(t, docs[i], []) : []);
    }
    return out;
  }

  /** Sorted values per live document: keyword strings (distinct, UTF-8 order) or numbers (ascending). */
  get docValues(): { get(doc: number): (string | number)[] | undefined } {
    return {
      get: (doc: number) => {
        if (!this.present.has(doc)) return undefined;
        if (this.values !== null) return this.values.list(doc);
        if (this.type !== 'keyword') return undefined;
        return (this.tokens as ForwardIndex<TermIds>).list(doc).map((t) => (this.terms as TermPostings).term(t));
      },
    };
  }

  /** Live documents having a numeric value equal to `value`. */
  pointDocs(value: number): Set<number> | undefined {
    const points = this.points;
    if (points === null) return undefined;
    const t = points.id(value);
    if (t < 0 || points.df[t] === 0) return undefined;
    const out = new Set<number>();
    for (const doc of points.docs(t)) if (this.present.has(doc)) out.add(doc);
    return out;
  }
}
