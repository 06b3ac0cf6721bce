/**
 * The embedded store's index file, `entities.index` in DATA_DIR: every collection's index (engine
 * state, engine/persist/) and declared mapping as of one change of the log (`seq`), with what a
 * reader must check before using it: the SQLite file it was written for (`database`: the random id
 * that file got when created), the engine code that wrote it (`engine`: fingerprint.ts), and
 * that the change log still holds every change after `seq` (the store checks that).
 */
import { join } from 'node:path';
import type { TypeMapping } from '../../mapping/typeMapping';
import { SearchIndex, type SearchIndexOptions } from '../engine';
import { IndexFileError, readIndexFile } from '../engine/persist/file';
import { StateWriter } from '../engine/persist/state';

export const INDEX_FILE = 'entities.index';

export const indexFilePath = (dataDir: string): string => join(dataDir, INDEX_FILE);

export interface IndexFileHeader {
  /** The SQLite file's id (database.ts databaseId). */
  database: string;
  /** engineFingerprint() of the writer. */
  engine: string;
  /** Every change of the log up to this number is in the file, none after. */
  seq: number;
  /** Collections in the order their indexes are written. */
  collections: string[];
  /** Declared mappings, as stored. */
  declared: [string, TypeMapping][];
  /** Live entities, all collections (for the log). */
  entities: number;
  writtenAt: string;
}

/** What the store's state is at one change: its indexes and declared mappings. */
export interface StoreIndices {
  seq: number;
  indices: Map<string, SearchIndex>;
  declared: Map<string, TypeMapping>;
}

/**
 * The indexes' state captured for writing (references: microseconds), and the test that none of
 * them changed since (to run after their bytes are written: engine/persist/file.ts checks).
 */
export function captureIndices(state: StoreIndices, database: string, engine: string): { header: IndexFileHeader; writer: StateWriter; unchanged: () => boolean } {
  const writer = new StateWriter();
  const collections: string[] = [];
  const seen: [string, SearchIndex, number][] = [];
  let entities = 0;
  for (const [collection, index] of state.indices) {
    // an index no document ever reached (a collection only searched) is the same made anew
    if (index.changes === 0) continue;
    collections.push(collection);
    seen.push([collection, index, index.changes]);
    entities += index.size;
    index.writeState(writer);
  }
  const unchanged = () => seen.every(([collection, index, changes]) => index.changes === changes && state.indices.get(collection) === index);
  const header: IndexFileHeader = { database, engine, seq: state.seq, collections, declared: [...state.declared], entities, writtenAt: new Date().toISOString() };
  return { header, writer, unchanged };
}

/**
 * Reads the file and checks it was written for this SQLite file, by this engine, at a change the
 * file still has (not after its last one). Throws IndexFileError with the reason otherwise (or a
 * file system error: ENOENT when there is none).
 */
export function readIndices(path: string, expected: { database: string; engine: string; lastSeq: number }, options: SearchIndexOptions): StoreIndices & { header: IndexFileHeader; bytes: number } {
  const { header, state, bytes } = readIndexFile<IndexFileHeader>(path);
  if (header.database !== expected.database) throw new IndexFileError('it was written for another SQLite file');
  if (header.engine !== expected.engine) throw new IndexFileError('it was written by another version of the engine');
  if (header.seq > expected.lastSeq) throw new IndexFileError(`it holds changes up to ${header.seq}, the SQLite file only up to ${expected.lastSeq}`);
  const indices = new Map<string, SearchIndex>();
  for (const collection of header.collections) indices.set(collection, SearchIndex.readState(state, options));
  state.end();
  return { header, bytes, seq: header.seq, indices, declared: new Map(header.declared) };
}
