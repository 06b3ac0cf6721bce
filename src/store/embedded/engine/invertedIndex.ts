/**
 * The documents of one index and their fields' indexes. Documents get an internal number, in
 * index order: a replaced document is removed and added again with a new, larger number (Lucene's
 * delete + add moves it to the end of the index order). Numbers are not reused, so iterating the
 * live documents by number is iterating them in index order.
 *
 * A removed document is a tombstone: its bit in `live` is cleared and every field's statistics drop
 * it at once, but its postings stay until the owner compacts the index (rebuilds it from the live
 * documents, renumbered in the same order) once dead documents outnumber live ones.
 *
 * `epoch` changes when document numbers change meaning (a rebuild); `deletes` counts removals. Both,
 * with `maxDoc`, tell cached per-document results (filter bitsets) whether they are still exact.
 */
import { Bitset } from './bitset';
import { FieldIndex } from './fieldIndex';
import { Doc } from '../../port';
import { FieldType, IndexMapping, ValueSink } from './mapping';
import { FilterCache } from './filterCache';
import { SourceStore } from './sourceStore';
import type { SourceBytes } from './pageText';
import { EMPTY_INT32, allocate, grow } from './growable';
import { TermHash } from './termHash';
import type { TermPostings } from './termPostings';
import type { StateReader, StateWriter } from './persist/state';
import { SpillTarget } from './persist/diskFile';
import { NestedDocs } from './nested/nestedDocs';

export interface DocRecord {
  readonly doc: number;
  readonly id: string;
  readonly source: Doc;
  /** Fields this document has a value in. */
  readonly fields: readonly string[];
}

/** A read-only Map-like view of the live documents by number, in index order. */
export interface DocsView {
  readonly size: number;
  has(doc: number): boolean;
  get(doc: number): DocRecord | undefined;
  keys(): IterableIterator<number>;
  values(): IterableIterator<DocRecord>;
}

let nextEpoch = 1;

export class InvertedIndex {
  readonly fields = new Map<string, FieldIndex>();
  /** Per declared nested field (not inside another): its objects' hidden documents (nested/nestedDocs.ts). */
  readonly nested = new Map<string, NestedDocs>();
  /** Live documents. */
  readonly live = new Bitset(0);
  /**
   * External ids, each with a key for good (one lookup finds or adds it, where a Map needs a failed
   * get and a set for each new document: a sixth of the build time at 100k documents).
   */
  private idKeys: TermHash;
  /**
   * The postings of the keyword field `idField` once it exists: its dictionary is `idKeys` (a
   * document's source holds its id there, the store's `id`: a million ids were in two dictionaries,
   * 25 bytes each). A key that is no value of the field is a term of it without postings, and a
   * value that is no id a key without a document: neither is seen.
   */
  private keyTerms: TermPostings<string> | null = null;
  /** Per id key: its live document's number + 1 (0: none); not kept while `identity` holds. */
  private docOfKey = EMPTY_INT32;
  /**
   * While every document from 0 on is live and has the key of its own number (ids written once
   * each, in order, none replaced or removed: an index filled by bulk loads of new entities), how
   * many documents there are: `docOfKey` and `keyOfDoc` are then not kept (4 bytes a document
   * each), the key of document d being d. -1 once that no longer holds (the arrays made as they
   * would have been).
   */
  private identity = 0;
  /** Non-scoring results cached for this index (see filterCache.ts). */
  readonly filterCache = new FilterCache();
  readonly epoch = nextEpoch++;
  /** Removals so far (a replace is one). */
  deletes = 0;
  private nextDoc = 0;
  /** Per document: its id key + 1 (0: removed); the id's text is in idKeys (no string per document). Not kept while `identity` holds. */
  private keyOfDoc = EMPTY_INT32;
  private readonly sources: SourceStore | null;
  /** Per document: index into fieldSets (documents with the same fields share one list). */
  private docFieldSet = new Int32Array(16);
  private readonly fieldSets: FieldIndex[][] = [[]];
  /** Per field set: field ordinal -> the set with that field added. */
  private readonly fieldSetNext: Map<number, number>[] = [new Map()];

  /**
   * @param storeSources keep each document's source (the single-document matcher does not need them)
   * @param spillDir where the sources and the tails of long terms go once a chunk of them is full (byteChunks.ts); none: in memory
   */
  constructor(
    storeSources = true,
    spillDir?: string,
    /** A keyword field the sources hold their id in: its dictionary and the ids' are one (see keyTerms). */
    readonly idField?: string,
  ) {
    this.spill = spillDir === undefined ? undefined : new SpillTarget(spillDir);
    this.sources = storeSources ? new SourceStore(this.spill) : null;
    this.idKeys = new TermHash(this.spill);
  }

  /** Its spill file (sources, long terms), opened with the first chunk spilled. */
  private readonly spill: SpillTarget | undefined;

  get size(): number {
    return this.live.size;
  }

  /** One past the largest document number ever given. */
  get maxDoc(): number {
    return this.nextDoc;
  }

  /** Removed documents whose postings are still in the index. */
  get dead(): number {
    return this.nextDoc - this.live.size;
  }

  field(name: string): FieldIndex | undefined {
    return this.fields.get(name);
  }

  /** The number of the live document with this id. */
  docOf(id: string): number | undefined {
    const doc = this.liveDoc(this.idKeys.get(id));
    return doc < 0 ? undefined : doc;
  }

  /** The live document of an id key, or -1 (none, or no such key). */
  private liveDoc(key: number): number {
    if (this.identity >= 0) return key >= 0 && key < this.identity ? key : -1;
    // (with idField, the keys are the id field's terms: a value no document has as its id may be past docOfKey)
    return key < 0 || key >= this.docOfKey.length ? -1 : this.docOfKey[key] - 1;
  }

  /** The key of an id (added when new), its live document removed. */
  private freeKey(id: string): number {
    const key = this.idKeys.intern(id);
    this.keyTerms?.ensure(key);
    if (this.identity < 0 && key >= this.docOfKey.length) this.docOfKey = grow(this.docOfKey, key + 1);
    const old = this.liveDoc(key);
    if (old >= 0) this.removeDoc(old, key);
    return key;
  }

  /** Add a document (replacing any with the same id), its fields read with the mapping; returns its internal number. `json`: see SourceStore.put. */
  addSource(id: string, source: Doc, mapping: IndexMapping, json?: string): number {
    const doc = this.addWalked(id, source, mapping, null, json);
    this.addChildren(doc, source, mapping, null);
    return doc;
  }

  /** Add one object of the nested field `path` as a document of this (a nested field's) index: its fields named under the path, its own nested objects its children. */
  addNested(id: string, object: Doc, path: string, mapping: IndexMapping): number {
    const doc = this.addWalked(id, object, mapping, path);
    this.addChildren(doc, object, mapping, path);
    return doc;
  }

  /** The objects of the nested fields directly under `level` (null: the root) as the document's children. */
  private addChildren(doc: number, source: Doc, mapping: IndexMapping, level: string | null): void {
    for (const path of mapping.nestedChildren(level)) {
      let nested = this.nested.get(path);
      if (nested === undefined) this.nested.set(path, (nested = new NestedDocs(path, new InvertedIndex(false), level === null ? path : path.slice(level.length + 1))));
      nested.add(doc, source, mapping);
    }
  }

  private addWalked(id: string, source: Doc, mapping: IndexMapping, nestedPath: string | null, json?: string): number {
    const key = this.freeKey(id);
    const doc = this.nextDoc++;
    this.valueAt = 0;
    this.mapping = mapping;
    if (nestedPath === null) mapping.walk(source, this.collect);
    else mapping.walkNested(source, nestedPath, this.collect);
    let set = 0;
    const touched = this.touched;
    for (let i = 0, n = this.touchedCount; i < n; i++) {
      const field = touched[i];
      const values = field.pending;
      if (values.length !== field.pendingCount) values.length = field.pendingCount; // (rarely: fewer values than last time)
      field.add(doc, values);
      field.pendingCount = 0;
      set = this.nextFieldSet(set, field);
    }
    this.touchedCount = 0;
    this.store(doc, key, id, source, set, json);
    return doc;
  }

  /** Fields given values by the document being added, in order of their first value. */
  private readonly touched: FieldIndex[] = [];
  private touchedCount = 0;
  /**
   * The fields of the values of the last document, in the order they came: documents mostly have
   * the same fields in the same order, so the field of the i-th value is looked up by name only
   * when it is not the same (path strings are the mapping's, so mostly the same string object).
   */
  private readonly lastFields: FieldIndex[] = [];
  private valueAt = 0;
  /** The mapping of the document being added (a new text field takes its analyzer from it). */
  private mapping: IndexMapping | null = null;
  private readonly collect: ValueSink = (name, type, value) => {
    const i = this.valueAt++;
    let field = i < this.lastFields.length ? this.lastFields[i] : undefined;
    if (field === undefined || field.name !== name) {
      field = this.fieldIndex(name, type);
      this.lastFields[i] = field;
    }
    if (field.pendingCount === 0) this.touched[this.touchedCount++] = field;
    field.pending[field.pendingCount++] = value;
  };

  private store(doc: number, key: number, id: string, source: Doc, set: number, json: string | undefined): void {
    if (doc >= this.docFieldSet.length) {
      this.docFieldSet = grow(this.docFieldSet, doc + 1);
    }
    this.docFieldSet[doc] = set;
    this.sources?.put(doc, source, json);
    this.live.add(doc);
    if (this.identity >= 0) {
      if (doc === this.identity && key === doc) {
        this.identity++;
        return;
      }
      this.keepKeys();
    }
    if (doc >= this.keyOfDoc.length) this.keyOfDoc = grow(this.keyOfDoc, doc + 1);
    if (key >= this.docOfKey.length) this.docOfKey = grow(this.docOfKey, key + 1);
    this.keyOfDoc[doc] = key + 1;
    this.docOfKey[key] = doc + 1;
  }

  /** `docOfKey` and `keyOfDoc` made as they would have been (see `identity`), then kept. */
  private keepKeys(): void {
    const n = this.identity;
    this.identity = -1;
    this.docOfKey = allocate(Int32Array, Math.max(16, this.idKeys.size));
    this.keyOfDoc = allocate(Int32Array, Math.max(16, n));
    for (let d = 0; d < n; d++) {
      this.docOfKey[d] = d + 1;
      this.keyOfDoc[d] = d + 1;
    }
  }

  remove(id: string): boolean {
    const key = this.idKeys.get(id);
    const doc = this.liveDoc(key);
    if (doc < 0) return false;
    this.removeDoc(doc, key);
    return true;
  }

  private removeDoc(doc: number, key: number): void {
    for (const nested of this.nested.values()) nested.removeParent(doc);
    for (const field of this.fieldSets[this.docFieldSet[doc]]) field.remove(doc);
    this.live.delete(doc);
    if (this.identity >= 0) this.keepKeys();
    this.docOfKey[key] = 0;
    this.keyOfDoc[doc] = 0;
    this.sources?.delete(doc);
    this.deletes++;
  }

  /** The id of a live document. */
  idOfDoc(doc: number): string | undefined {
    if (this.identity >= 0) return doc >= 0 && doc < this.identity ? this.idKeys.term(doc) : undefined;
    const key = doc < this.keyOfDoc.length ? this.keyOfDoc[doc] : 0;
    return key === 0 ? undefined : this.idKeys.term(key - 1);
  }

  private isStored(doc: number): boolean {
    if (this.identity >= 0) return doc >= 0 && doc < this.identity;
    return doc < this.keyOfDoc.length && this.keyOfDoc[doc] !== 0;
  }

  /** A copy of the stored source of a live document. */
  sourceOf(doc: number): Doc | undefined {
    return !this.isStored(doc) || this.sources === null ? undefined : this.sources.get(doc);
  }

  /** The source's stored JSON text (see SourceStore.json), when it is kept as text. */
  sourceJsonOf(doc: number): Buffer | undefined {
    return !this.isStored(doc) || this.sources === null ? undefined : this.sources.json(doc);
  }

  /** Document `doc`'s stored source text, to be copied where it goes (see PageText), or undefined when it is kept as an object. */
  sourceBytesOf(doc: number): SourceBytes | undefined {
    const sources = this.sources;
    if (!this.isStored(doc) || sources === null) return undefined;
    const length = sources.jsonLength(doc);
    return length < 0 ? undefined : { length, copy: (out, at) => sources.copyJson(doc, out, at) };
  }

  record(doc: number): DocRecord | undefined {
    const id = this.idOfDoc(doc);
    if (id === undefined) return undefined;
    return { doc, id, source: this.sources === null ? {} : this.sources.get(doc), fields: this.fieldSets[this.docFieldSet[doc]].map((f) => f.name) };
  }

  /** Live documents by number (Map-like). */
  get docs(): DocsView {
    const live = this.live;
    const record = (doc: number) => this.record(doc);
    return {
      size: live.size,
      has: (doc) => live.has(doc),
      get: record,
      keys: () => live[Symbol.iterator](),
      values: function* () {
        for (const doc of live) yield record(doc) as DocRecord;
      },
    };
  }

  /**
   * For the index file (persist/): documents, ids, sources, field sets and every field, as they
   * are (removed documents' postings included: restored, the index is the same one). The ids of
   * live documents are not written twice: `keyOfDoc` is made again from the id keys.
   */
  writeState(w: StateWriter): void {
    const keys = this.idKeys.size;
    const shared = this.keyTerms !== null;
    w.json([this.nextDoc, this.deletes, this.sources !== null, this.fieldSets.map((set) => set.map((f) => f.ordinal)), this.fieldSetNext.map((next) => [...next]), this.idField ?? null, shared]);
    this.live.writeState(w);
    if (!shared) this.idKeys.writeState(w); // (else with its field)
    if (this.identity >= 0) {
      const n = this.identity;
      w.int32Made(() => {
        const docOfKey = new Int32Array(keys);
        for (let key = 0; key < n; key++) docOfKey[key] = key + 1;
        return docOfKey;
      });
    } else {
      if (this.docOfKey.length < keys) this.docOfKey = grow(this.docOfKey, keys);
      w.array(this.docOfKey, keys);
    }
    w.array(this.docFieldSet);
    this.sources?.writeState(w);
    w.json(this.fields.size);
    for (const field of this.fields.values()) field.writeState(w);
    w.json([...this.nested.keys()]);
    for (const nested of this.nested.values()) nested.writeState(w);
  }

  /** An index as `writeState` wrote it (its new sources spilled to `spillDir`, if given). */
  static readState(r: StateReader, spillDir?: string): InvertedIndex {
    const [nextDoc, deletes, storeSources, fieldSets, fieldSetNext, idField, shared] = r.json<[number, number, boolean, number[][], [number, number][][], string | null, boolean]>();
    const index = new InvertedIndex(storeSources, spillDir, idField ?? undefined);
    index.nextDoc = nextDoc;
    index.deletes = deletes;
    index.live.readState(r);
    if (!shared) index.idKeys.readState(r);
    index.docOfKey = r.int32();
    index.docFieldSet = r.int32();
    index.sources?.readState(r);
    const fields: FieldIndex[] = [];
    for (let i = 0, n = r.json<number>(); i < n; i++) {
      const field = FieldIndex.readState(r, index.spill);
      fields.push(field);
      index.fields.set(field.name, field);
    }
    if (shared) {
      index.keyTerms = (index.fields.get(idField as string) as FieldIndex).terms as TermPostings<string>;
      index.idKeys = index.keyTerms.dict as TermHash;
    }
    for (const path of r.json<string[]>()) index.nested.set(path, NestedDocs.readState(r, path, InvertedIndex.readState));
    index.fieldSets.length = 0;
    for (const set of fieldSets) index.fieldSets.push(set.map((ordinal) => fields[ordinal]));
    index.fieldSetNext.length = 0;
    for (const next of fieldSetNext) index.fieldSetNext.push(new Map(next));
    const docOfKey = index.docOfKey;
    let identity = nextDoc <= docOfKey.length;
    for (let key = 0; key < docOfKey.length && identity; key++) identity = docOfKey[key] === (key < nextDoc ? key + 1 : 0);
    if (identity) {
      index.identity = nextDoc;
      index.docOfKey = EMPTY_INT32;
      return index;
    }
    index.identity = -1;
    const keyOfDoc = new Int32Array(nextDoc);
    for (let key = 0; key < docOfKey.length; key++) if (docOfKey[key] > 0) keyOfDoc[docOfKey[key] - 1] = key + 1;
    index.keyOfDoc = keyOfDoc;
    return index;
  }

  private nextFieldSet(set: number, field: FieldIndex): number {
    const ordinal = field.ordinal;
    // the transition taken last from this set, nearly always the one needed
    if (set < this.lastStep.length && this.lastStep[set] === ordinal + 1) return this.lastNext[set];
    let next = this.fieldSetNext[set].get(ordinal);
    if (next === undefined) {
      next = this.fieldSets.length;
      this.fieldSets.push([...this.fieldSets[set], field]);
      this.fieldSetNext.push(new Map());
      this.fieldSetNext[set].set(ordinal, next);
    }
    if (set >= this.lastStep.length) {
      this.lastStep = grow(this.lastStep, set + 1);
      this.lastNext = grow(this.lastNext, set + 1);
    }
    this.lastStep[set] = ordinal + 1;
    this.lastNext[set] = next;
    return next;
  }

  /** Per field set: 1 + the ordinal of the field last added to it (0: none yet) and the set it led to. */
  private lastStep = EMPTY_INT32;
  private lastNext = EMPTY_INT32;

  private fieldIndex(name: string, type: FieldType): FieldIndex {
    let index = this.fields.get(name);
    if (index === undefined) {
      const analyzer = type === 'text' && this.mapping !== null ? this.mapping.analyzersOf(name).index : undefined;
      const sharesKeys = name === this.idField && type === 'keyword';
      this.fields.set(name, (index = new FieldIndex(name, type, analyzer, this.spill, sharesKeys ? this.idKeys : undefined)));
      index.ordinal = this.fields.size - 1;
      if (sharesKeys) {
        this.keyTerms = index.terms as TermPostings<string>;
        if (this.idKeys.size > 0) this.keyTerms.ensure(this.idKeys.size - 1);
      }
    }
    return index;
  }
}
