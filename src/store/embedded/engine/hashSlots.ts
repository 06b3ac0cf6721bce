/**
 * The slots of the engine's open-addressing dictionaries (termHash.ts, numberHash.ts): an Int32Array
 * of 2^b slots, 0 for an empty one, else `id + 1` in its low b bits and, above them, the bits b to 30
 * of the entry's hash (those the slot number, the low b bits, does not tell). A lookup compares
 * those bits before it reads the entry's term, so that an entry of another hash is passed over
 * without reading its term's offset and characters (or value): in a large dictionary (a million ids,
 * slugs or whole names) those are two or three reads from memory not in the CPU's caches for each
 * entry passed, on every insert of a new term. As Lucene's BytesRefHash, which keeps no hash per
 * term either, but for the bits an entry has room for: a table of 2^b slots holds at most 2^(b-1)
 * entries (it is doubled beyond), so `id + 1` fits in b bits and the 31 - b others are free.
 */

/** The hash bits a slot keeps beside its id, for a table of `mask + 1` slots. */
export const tagOf = (hash: number, mask: number): number => hash & ~mask & 0x7fffffff;

/** The slot entry of id `id` and hash `hash` in a table of `mask + 1` slots. */
export const slotEntry = (id: number, hash: number, mask: number): number => tagOf(hash, mask) | (id + 1);

/** The id of a non-empty slot entry. */
export const entryId = (entry: number, mask: number): number => (entry & mask) - 1;
