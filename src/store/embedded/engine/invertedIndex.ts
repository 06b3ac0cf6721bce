/**
 * The documents of one index and their fields' indexes. Documents get an internal number, in
 * index order: a replaced document is removed and added again with a new, larger number (Lucene's
 * delete + add moves it to the end of the index order). Numbers are never reused, so iterating the
 * live documents in insertion order is iterating them in index order.
 */
import { FieldIndex } from './fieldIndex';
import { Doc } from '../../port';
import { FieldType, ParsedDoc } from './mapping';

export interface DocRecord {
  readonly doc: number;
  readonly id: string;
  readonly source: Doc;
  /** Fields this document has a value in (to remove it from their indexes). */
  readonly fields: readonly string[];
}

export class InvertedIndex {
  private nextDoc = 0;
  readonly fields = new Map<string, FieldIndex>();
  /** Live documents by internal number, in index order. */
  readonly docs = new Map<number, DocRecord>();
  /** External id -> internal number. */
  readonly ids = new Map<string, number>();

  get size(): number {
    return this.docs.size;
  }

  field(name: string): FieldIndex | undefined {
    return this.fields.get(name);
  }

  /** Add a document (replacing any with the same id); returns its internal number. */
  add(id: string, source: Doc, parsed: ParsedDoc): number {
    this.remove(id);
    const doc = this.nextDoc++;
    for (const [name, { type, values }] of parsed) this.fieldIndex(name, type).add(doc, values);
    this.docs.set(doc, { doc, id, source, fields: [...parsed.keys()] });
    this.ids.set(id, doc);
    return doc;
  }

  remove(id: string): boolean {
    const doc = this.ids.get(id);
    if (doc === undefined) return false;
    const record = this.docs.get(doc) as DocRecord;
    for (const name of record.fields) this.fields.get(name)?.remove(doc);
    this.docs.delete(doc);
    this.ids.delete(id);
    return true;
  }

  record(doc: number): DocRecord | undefined {
    return this.docs.get(doc);
  }

  private fieldIndex(name: string, type: FieldType): FieldIndex {
    let index = this.fields.get(name);
    if (index === undefined) this.fields.set(name, (index = new FieldIndex(name, type)));
    return index;
  }
}
