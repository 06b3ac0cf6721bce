/**
 * The two sides of the engine benchmark, behind one interface: this engine (the embedded store's
 * SearchIndex, with the store's mapping or a name-only one) and MiniSearch (field `name`, as the
 * issue specifies).
 */
import MiniSearch from 'minisearch';
import { ENTITY_MAPPING } from '../../src/store/embedded/embeddedStore';
import { SearchIndex, type Mapping } from '../../src/store/embedded/engine';
import type { CorpusDoc } from './corpus';

export interface Contender {
  readonly name: string;
  /** What it indexes and stores, for the report. */
  readonly indexes: string;
  /** Index documents already in memory. */
  build(docs: readonly CorpusDoc[], sources: readonly Record<string, unknown>[]): void;
  /** The two-word query on `name`: OR of its terms, top 10 by the contender's own score; returns the number of hits. */
  match(text: string): number;
  /** Release the index. */
  drop(): void;
}

/**
 * What the engine row indexes:
 * - `dynamic`: the embedded store's mapping, every field of the document mapped dynamically (text +
 *   `.keyword` for strings, long for numbers), as the gateway indexes entities;
 * - `name`: MiniSearch's share of the work, like for like: an explicit mapping that indexes `name` as
 *   text only (`"dynamic": false`: the other fields are not indexed), still keeping each whole `_source`.
 */
export type EngineMode = 'dynamic' | 'name';

/** `name` as text, nothing else indexed (Elasticsearch: `{"dynamic": false, "properties": {"name": {"type": "text"}}}`). */
export const NAME_ONLY_MAPPING: Mapping = { dynamic: false, text: ['name'] };

export class EngineContender implements Contender {
  readonly name: string;
  readonly indexes: string;
  index: SearchIndex | null = null;

  constructor(private readonly mode: EngineMode = 'dynamic') {
    this.name = mode === 'name' ? 'engine, name only' : 'engine';
    this.indexes =
      mode === 'name'
        ? 'mapping {dynamic: false, name: text}: name as text only (no .keyword), the other fields in _source only; each whole _source kept'
        : 'every field of the document, mapped dynamically (name, description, code, category: text + .keyword; rank: long; allowTenantIds: keyword) and each _source';
  }

  build(docs: readonly CorpusDoc[], sources: readonly Record<string, unknown>[]): void {
    const index = new SearchIndex(this.mode === 'name' ? NAME_ONLY_MAPPING : ENTITY_MAPPING);
    for (let i = 0; i < docs.length; i++) index.put(docs[i]._id, sources[i]);
    this.index = index;
  }

  match(text: string): number {
    return (this.index as SearchIndex).search({ query: { match: { name: text } }, from: 0, size: 10 }).hits.length;
  }

  drop(): void {
    this.index = null;
  }
}

export class MiniSearchContender implements Contender {
  readonly name = 'MiniSearch';
  readonly indexes = 'field `name` only (no stored fields)';
  private index: MiniSearch<CorpusDoc> | null = null;

  build(docs: Iterable<CorpusDoc>): void {
    const index = new MiniSearch<CorpusDoc>({ fields: ['name'], idField: '_id' });
    for (const doc of docs) index.add(doc);
    this.index = index;
  }

  match(text: string): number {
    // default options: terms combined with OR, no prefix or fuzzy matching; results sorted by score
    return (this.index as MiniSearch<CorpusDoc>).search(text).slice(0, 10).length;
  }

  drop(): void {
    this.index = null;
  }
}
