/**
 * The index of one field, with what Lucene keeps for it in Elasticsearch's mapping:
 *
 * - text: terms with positions and frequencies, one norm byte per document (SmallFloat of the number
 *   of tokens), position_increment_gap 100 between the values of a multi-valued field;
 * - keyword and boolean: terms without frequencies or norms (index_options docs), doc values
 *   (keyword: sorted set of distinct strings; boolean: 0/1) for sorting;
 * - long, float, date: "points" (value -> documents) for term and range queries, and sorted
 *   numeric doc values (duplicates kept) for sorting.
 *
 * Statistics (docCount, sumTotalTermFreq, sumDocFreq, docFreq) are those of the live documents:
 * a removed or replaced document stops counting at once. Elasticsearch keeps counting deleted
 * documents until their segment is merged, so its scores drift after updates; we choose exact
 * statistics, which equal Elasticsearch's on a freshly indexed (or force-merged) index.
 */
import { analyzeText } from './analyzer';
import { FieldType, booleanTerm } from './fieldValues';
import { CollectionStats } from './similarity';
import { intToByte4 } from './smallFloat';
import { compareUtf8 } from './strings';

/** Positions of a term in a document (empty for fields indexed without positions). */
export type Positions = number[];

/** term -> (document -> positions), documents in ascending order of insertion. */
export type Postings = Map<number, Positions>;

export const POSITION_INCREMENT_GAP = 100;

const NO_POSITIONS: Positions = [];

export class FieldIndex {
  readonly terms = new Map<string, Postings>();
  /** text: document -> norm byte (0 when the field is present without tokens). */
  readonly norms = new Map<number, number>();
  /** Sorted values per document: keyword strings (distinct, UTF-8 order) or numbers (ascending). */
  readonly docValues = new Map<number, (string | number)[]>();
  /** long/float/date: value -> documents. */
  readonly points = new Map<number, Set<number>>();
  /** Documents where the field exists (what the `exists` query matches). */
  readonly present = new Set<number>();

  /** Number of documents with at least one term. */
  docCount = 0;
  /** text: total number of tokens; docs-only fields: same as sumDocFreq (as Lucene reports it). */
  sumTotalTermFreq = 0;
  sumDocFreq = 0;

  private readonly docTerms = new Map<number, string[]>();
  private readonly lengths = new Map<number, number>();

  constructor(
    readonly name: string,
    readonly type: FieldType,
  ) {}

  get hasNorms(): boolean {
    return this.type === 'text';
  }

  get isNumeric(): boolean {
    return this.type === 'long' || this.type === 'float' || this.type === 'date';
  }

  collectionStats(): CollectionStats {
    return { docCount: this.docCount, sumTotalTermFreq: this.sumTotalTermFreq };
  }

  postings(term: string): Postings | undefined {
    return this.terms.get(term);
  }

  docFreq(term: string): number {
    return this.terms.get(term)?.size ?? 0;
  }

  /** Norm byte of a document for scoring: 1 for fields without norms (LeafSimScorer's default). */
  norm(doc: number): number {
    return this.hasNorms ? (this.norms.get(doc) ?? 0) : 1;
  }

  add(doc: number, values: readonly (string | number | boolean)[]): void {
    switch (this.type) {
      case 'text':
        this.addText(doc, values as string[]);
        break;
      case 'keyword':
        this.addTerms(doc, values as string[], [...new Set(values as string[])].sort(compareUtf8));
        break;
      case 'boolean': {
        const bools = values as boolean[];
        this.addTerms(doc, bools.map(booleanTerm), bools.map((b) => (b ? 1 : 0)).sort((a, b) => a - b));
        break;
      }
      default:
        this.addNumbers(doc, values as number[]);
    }
  }

  private addText(doc: number, values: string[]): void {
    const byTerm = new Map<string, Positions>();
    let position = -1;
    let length = 0;
    for (const value of values) {
      for (const token of analyzeText(value)) {
        position += 1;
        length += 1;
        const positions = byTerm.get(token);
        if (positions === undefined) byTerm.set(token, [position]);
        else positions.push(position);
      }
      position += POSITION_INCREMENT_GAP;
    }
    this.present.add(doc);
    this.norms.set(doc, length === 0 ? 0 : intToByte4(length));
    this.lengths.set(doc, length);
    if (byTerm.size === 0) return;
    for (const [term, positions] of byTerm) this.post(term, doc, positions);
    this.docTerms.set(doc, [...byTerm.keys()]);
    this.docCount += 1;
    this.sumTotalTermFreq += length;
    this.sumDocFreq += byTerm.size;
  }

  private addTerms(doc: number, terms: string[], docValues: (string | number)[]): void {
    const distinct = [...new Set(terms)];
    if (distinct.length === 0) return;
    for (const term of distinct) this.post(term, doc, NO_POSITIONS);
    this.docTerms.set(doc, distinct);
    this.docValues.set(doc, docValues);
    this.present.add(doc);
    this.docCount += 1;
    this.sumTotalTermFreq += distinct.length;
    this.sumDocFreq += distinct.length;
  }

  private addNumbers(doc: number, values: number[]): void {
    if (values.length === 0) return;
    for (const value of values) {
      let docs = this.points.get(value);
      if (docs === undefined) this.points.set(value, (docs = new Set()));
      docs.add(doc);
    }
    this.docValues.set(doc, [...values].sort((a, b) => a - b));
    this.present.add(doc);
  }

  private post(term: string, doc: number, positions: Positions): void {
    let postings = this.terms.get(term);
    if (postings === undefined) this.terms.set(term, (postings = new Map()));
    postings.set(doc, positions);
  }

  remove(doc: number): void {
    const terms = this.docTerms.get(doc);
    if (terms !== undefined) {
      for (const term of terms) {
        const postings = this.terms.get(term);
        if (postings === undefined) continue;
        postings.delete(doc);
        if (postings.size === 0) this.terms.delete(term);
      }
      this.docTerms.delete(doc);
      this.docCount -= 1;
      this.sumDocFreq -= terms.length;
      this.sumTotalTermFreq -= this.type === 'text' ? (this.lengths.get(doc) ?? 0) : terms.length;
    }
    if (this.isNumeric) {
      for (const value of (this.docValues.get(doc) ?? []) as number[]) {
        const docs = this.points.get(value);
        if (docs === undefined) continue;
        docs.delete(doc);
        if (docs.size === 0) this.points.delete(value);
      }
    }
    this.docValues.delete(doc);
    this.norms.delete(doc);
    this.lengths.delete(doc);
    this.present.delete(doc);
  }

  /** Documents having a numeric value equal to `value`. */
  pointDocs(value: number): Set<number> | undefined {
    return this.points.get(value);
  }
}
