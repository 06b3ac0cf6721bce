/**
 * The hidden documents of one `nested` field (Elasticsearch's `type: nested`): each object of the
 * field's values is a document of its own, as Elasticsearch indexes it (DocumentParser: a nested
 * object is a Lucene document of the same block, before its parent). Here they are an index of
 * their own (its own fields, `parts.name`..., with their own statistics: in Lucene a field under a
 * nested path only exists in the child documents, so its docCount, docFreq and average length are
 * the children's alone, which this index's are), with each child's parent and its offset in the
 * parent's array (`_nested.offset` of an inner hit).
 *
 * A parent's children are added together, right after it: child numbers grow with parent numbers,
 * and a parent's children are a run of consecutive numbers (as a Lucene block is), which the join
 * (lucene/blockJoin.ts) and the inner hits read. A nested field inside another has its documents in
 * the index of the outer field's objects (their parents), and so on down: a root document's
 * descendants at any depth are a run of consecutive numbers too.
 */
import type { Doc } from '../../../port';
import { isPlainObject } from '../json';
import type { IndexMapping } from '../mapping';
import type { InvertedIndex } from '../invertedIndex';
import { EMPTY_INT32, grow } from '../growable';
import type { StateReader, StateWriter } from '../persist/state';

export class NestedDocs {
  /** Child document -> its parent's document. */
  private parentOfChild = EMPTY_INT32;
  /** Child document -> its offset among the parent's objects of the field. */
  private offsetOfChild = EMPTY_INT32;
  /** Parent document -> its first child's number + 1 (0: none). */
  private firstChildOf = EMPTY_INT32;
  /** Parent document -> how many children it has. */
  private childCountOf = EMPTY_INT32;

  /**
   * @param index the children's index (without stored sources: a child's source is its parent's object)
   * @param relative the field's path from its parent (the root, or the nested field it is inside of)
   */
  constructor(
    readonly path: string,
    readonly index: InvertedIndex,
    readonly relative: string = path,
  ) {}

  /** Indexes the objects of the field in a parent's source (a root document's, or an object of the outer nested field) as its children. */
  add(parent: number, source: Doc, mapping: IndexMapping): void {
    const objects = nestedObjects(source, this.relative);
    if (objects.length === 0) return;
    this.firstChildOf = grow(this.firstChildOf, parent + 1);
    this.childCountOf = grow(this.childCountOf, parent + 1);
    for (let offset = 0; offset < objects.length; offset++) {
      const child = this.index.addNested(`${parent}.${offset}`, objects[offset], this.path, mapping);
      this.parentOfChild = grow(this.parentOfChild, child + 1);
      this.offsetOfChild = grow(this.offsetOfChild, child + 1);
      this.parentOfChild[child] = parent;
      this.offsetOfChild[child] = offset;
      if (offset === 0) this.firstChildOf[parent] = child + 1;
    }
    this.childCountOf[parent] = objects.length;
  }

  /** Removes a parent's children (the parent is removed or replaced). */
  removeParent(parent: number): void {
    if (parent >= this.firstChildOf.length || this.firstChildOf[parent] === 0) return;
    const first = this.firstChildOf[parent] - 1;
    for (let child = first, end = first + this.childCountOf[parent]; child < end; child++) {
      const id = this.index.idOfDoc(child);
      if (id !== undefined) this.index.remove(id);
    }
    this.firstChildOf[parent] = 0;
    this.childCountOf[parent] = 0;
  }

  parentOf(child: number): number {
    return this.parentOfChild[child];
  }

  offsetOf(child: number): number {
    return this.offsetOfChild[child];
  }

  /** A parent's children: [first, end) of child numbers (empty when it has none). */
  childrenOf(parent: number): { first: number; end: number } {
    if (parent >= this.firstChildOf.length || this.firstChildOf[parent] === 0) return { first: 0, end: 0 };
    const first = this.firstChildOf[parent] - 1;
    return { first, end: first + this.childCountOf[parent] };
  }

  /** For the index file (persist/): the relative path, the children's index and the links, in this order. */
  writeState(w: StateWriter): void {
    w.json(this.relative);
    this.index.writeState(w);
    const children = this.index.maxDoc;
    w.array(this.parentOfChild, children);
    w.array(this.offsetOfChild, children);
    const parents = this.firstChildOf.length;
    w.array(this.firstChildOf, parents);
    w.array(this.childCountOf, parents);
  }

  /** The nested documents as `writeState` wrote them; `readIndex` reads the children's index. */
  static readState(r: StateReader, path: string, readIndex: (r: StateReader) => InvertedIndex): NestedDocs {
    const relative = r.json<string>();
    const docs = new NestedDocs(path, readIndex(r), relative);
    docs.parentOfChild = r.int32();
    docs.offsetOfChild = r.int32();
    docs.firstChildOf = r.int32();
    docs.childCountOf = r.int32();
    return docs;
  }
}

/**
 * The objects of a nested field in a source, in order (their offsets): the field's value when it
 * is an object, the objects of its array (nulls and other values skipped), following objects and
 * arrays of objects on the way to it (`a.parts` under an array `a`: each element's objects, in turn).
 */
export function nestedObjects(source: Doc, path: string): Record<string, unknown>[] {
  let level: unknown[] = [source];
  for (const key of path.split('.')) {
    const next: unknown[] = [];
    for (const value of level) if (isPlainObject(value) && Object.prototype.hasOwnProperty.call(value, key)) collect(value[key], next, 0);
    level = next;
  }
  return level as Record<string, unknown>[];
}

/** The objects of a value (itself, or its array's elements, arrays flattened) appended to `out`. */
function collect(value: unknown, out: unknown[], depth: number): void {
  if (isPlainObject(value)) out.push(value);
  else if (Array.isArray(value) && depth < 100) for (const element of value) collect(element, out, depth + 1);
}
