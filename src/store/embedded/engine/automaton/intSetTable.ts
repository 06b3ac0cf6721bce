/**
 * Numbers sets of ints (given sorted, without duplicates) in the order they are first seen: the
 * "Map<IntSet, Integer>" of Lucene's Operations.determinize, without an object or a string key per
 * set. Sets are stored one after the other in one array and found by hash (open addressing).
 */
export class IntSetTable {
  private pool = new Int32Array(256);
  /** Set id's values are pool[starts[id], starts[id + 1]). */
  private readonly starts: number[] = [0];
  private readonly hashes: number[] = [];
  private table = new Int32Array(256).fill(-1);

  get size(): number {
    return this.hashes.length;
  }

  /** The id of the set values[from, to), added if new. */
  intern(values: Int32Array, from: number, to: number): number {
    let hash = to - from;
    for (let i = from; i < to; i++) hash = Math.imul(hash ^ values[i], 0x9e3779b1);
    hash ^= hash >>> 15;
    const mask = this.table.length - 1;
    let slot = hash & mask;
    for (let id = this.table[slot]; id >= 0; slot = (slot + 1) & mask, id = this.table[slot]) {
      if (this.hashes[id] === hash && this.equals(id, values, from, to)) return id;
    }
    const id = this.hashes.length;
    const at = this.starts[id];
    if (at + to - from > this.pool.length) {
      const grown = new Int32Array(2 * (at + to - from));
      grown.set(this.pool);
      this.pool = grown;
    }
    for (let i = from; i < to; i++) this.pool[at + i - from] = values[i];
    this.starts.push(at + to - from);
    this.hashes.push(hash);
    this.table[slot] = id;
    if (2 * this.hashes.length > this.table.length) this.rehash();
    return id;
  }

  /** The values of set `id` are at(start(id)) .. at(end(id) - 1). */
  start(id: number): number {
    return this.starts[id];
  }

  end(id: number): number {
    return this.starts[id + 1];
  }

  at(index: number): number {
    return this.pool[index];
  }

  private equals(id: number, values: Int32Array, from: number, to: number): boolean {
    const at = this.starts[id];
    if (this.starts[id + 1] - at !== to - from) return false;
    for (let i = from; i < to; i++) if (this.pool[at + i - from] !== values[i]) return false;
    return true;
  }

  private rehash(): void {
    const table = new Int32Array(this.table.length * 2).fill(-1);
    const mask = table.length - 1;
    for (let id = 0; id < this.hashes.length; id++) {
      let slot = this.hashes[id] & mask;
      while (table[slot] >= 0) slot = (slot + 1) & mask;
      table[slot] = id;
    }
    this.table = table;
  }
}
