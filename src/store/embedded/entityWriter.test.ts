/** The import's writer: the embedded store's writes (a store on the same DATA_DIR sees them), its field limit, without an index of its own. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InvalidDocumentError } from '../port';
import { EmbeddedStore } from './embeddedStore';
import { EmbeddedEntityWriter } from './entityWriter';
import { parseTypeMapping } from '../mapping/typeMapping';

const entity = (id: string, slug: string, extra: Record<string, unknown> = {}) => ({ id, slug, name: `Name ${id}`, allowTenantIds: ['*'], ...extra });

describe('EmbeddedEntityWriter', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'entity-writer-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes as the store does: a store on the same DATA_DIR finds the entities, taken ids and slugs are refused', async () => {
    const store = new EmbeddedStore(dir);
    await store.entities.create('countries', 'fr', entity('fr', 'france'));
    const writer = new EmbeddedEntityWriter(dir, 1000);
    expect(await writer.createMany('countries', [{ id: 'de', source: entity('de', 'germany') }, { id: 'fr', source: entity('fr', 'x') }, { id: 'it', source: entity('it', 'france') }])).toEqual([
      'ok',
      'id_taken',
      'slug_taken',
    ]);
    expect(await writer.get('countries', 'de')).toEqual(entity('de', 'germany'));
    expect(await writer.get('countries', 'it')).toBeNull();
    const found = await store.entities.search('countries', { query: { match: { name: 'de' } }, from: 0, size: 10 }, null);
    expect(found.hits.map((h) => h._id)).toEqual(['de']);
    await writer.close();
    await store.close();
  });

  it('refuses a batch that would take the collection past MAX_FIELDS, counting the fields already stored', async () => {
    const store = new EmbeddedStore(dir);
    // id, entityType, slug, allowTenantIds (mapped), name + name.keyword, a
    await store.entities.create('things', 't1', entity('t1', 't1', { a: 1 }));
    await store.close();
    const writer = new EmbeddedEntityWriter(dir, 9);
    // sent together (the import checks a batch while the one before is written): each is checked
    // with the fields of those written before it, and a refused item's fields are not counted
    const taken = writer.createMany('things', [{ id: 't1', source: entity('t1', 't9', { z: 1 }) }]);
    const fits = writer.createMany('things', [{ id: 't2', source: entity('t2', 't2', { b: 1 }) }]);
    const over = writer.createMany('things', [{ id: 't3', source: entity('t3', 't3', { c: 1 }) }]);
    expect(await taken).toEqual(['id_taken']);
    expect(await fits).toEqual(['ok']);
    await expect(over).rejects.toThrow('Limit of total fields [9]');
    await expect(writer.createMany('things', [{ id: 't3', source: entity('t3', 't3', { c: 1 }) }])).rejects.toThrow(InvalidDocumentError);
    await expect(writer.createMany('things', [{ id: 't3', source: entity('t3', 't3', { c: 1 }) }])).rejects.toThrow('Limit of total fields [9]');
    expect(await writer.createMany('others', [{ id: 'o', source: entity('o', 'o', { c: 1 }) }])).toEqual(['ok']);
    await writer.close();
  });
});

describe('EmbeddedEntityWriter.checkDocuments (npm run import)', () => {
  it('checks items against the declared mapping stored in DATA_DIR', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'writer-mapping-'));
    const store = new EmbeddedStore(dir);
    await store.entities.putMapping('things', parseTypeMapping({ dynamic: 'strict', properties: { price: { type: 'long' } } }));
    const writer = new EmbeddedEntityWriter(dir, 1000);
    const refusals = await writer.checkDocuments('things', [{ id: 'a', source: { price: 1 } }, { id: 'b', source: { price: 'x' } }, { id: 'c', source: { colour: 'red' } }]);
    expect(refusals.map((r) => r?.kind ?? null)).toEqual([null, 'document_parse_failed', 'strict_dynamic_mapping']);
    expect(await writer.checkDocuments('others', [{ id: 'a', source: { anything: 1 } }])).toEqual([null]);
    await writer.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
});
