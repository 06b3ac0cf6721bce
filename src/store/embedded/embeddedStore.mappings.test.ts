/** Declared mappings on the embedded store: stored in SQLite, loaded at start, followed by the other processes on the DATA_DIR. */
import { MappingError } from '../mapping/mappingError';
import { parseTypeMapping } from '../mapping/typeMapping';
import { EmbeddedDatabase } from './database';
import { sharedDataDir } from './testing/sharedDataDir';

const data = sharedDataDir('mapping-store-');
const store = () => data.store();
const entity = (code: string) => ({ code, slug: code.toLowerCase(), allowTenantIds: ['*'] });

describe('embedded store: declared mappings', () => {
  it('answers the merged mapping, survives a restart, and another process on the DATA_DIR applies it', async () => {
    const one = store();
    const two = store();
    expect(await one.entities.getMapping('things')).toEqual({ dynamic: 'true', properties: {} });
    expect(await one.entities.putMapping('things', parseTypeMapping({ properties: { code: { type: 'keyword' } } }))).toEqual({ dynamic: 'true', properties: { code: { type: 'keyword' } } });
    expect(await two.entities.putMapping('things', parseTypeMapping({ _meta: { v: 1 }, properties: { rank: { type: 'integer' } } }))).toEqual({
      dynamic: 'true',
      _meta: { v: 1 },
      properties: { code: { type: 'keyword' }, rank: { type: 'integer' } },
    });
    for (const code of ['FR', 'FI', 'DE']) expect(await two.entities.create('things', code, entity(code))).toBe('ok');
    expect(await one.entities.count('things', { prefix: { code: 'F' } }, null)).toEqual({ count: 2 });
    expect((await one.entities.getMapping('things')).properties.rank).toEqual({ type: 'integer' });
    const restarted = store();
    expect(await restarted.entities.getMapping('things')).toEqual(await one.entities.getMapping('things'));
    expect(await restarted.entities.count('things', { prefix: { code: 'F' } }, null)).toEqual({ count: 2 });
    expect(await restarted.entities.getMapping('others')).toEqual({ dynamic: 'true', properties: {} });
  });

  it("refuses to change a field's type (declared, dynamic or server-managed), and writes nothing", async () => {
    const one = store();
    await one.entities.putMapping('things', parseTypeMapping({ properties: { code: { type: 'keyword' } } }));
    await one.entities.create('things', 'a', { ...entity('A'), name: 'Alpha' });
    const refused = async (body: unknown) => one.entities.putMapping('things', parseTypeMapping(body)).then(() => null, (err: unknown) => err as MappingError);
    expect((await refused({ properties: { code: { type: 'text' } } }))?.message).toBe('mapper [code] cannot be changed from type [keyword] to [text]');
    expect((await refused({ properties: { name: { type: 'keyword' } } }))?.props).toEqual({ field: 'name', from: 'text', to: 'keyword' });
    expect((await refused({ properties: { slug: { type: 'text' } } }))?.props).toEqual({ field: 'slug', from: 'keyword', to: 'text' });
    expect((await refused({ properties: { modified: { type: 'long' } } }))?.props).toEqual({ field: 'modified', from: 'date', to: 'long' });
    expect(await one.entities.getMapping('things')).toEqual({ dynamic: 'true', properties: { code: { type: 'keyword' } } });
    const db = new EmbeddedDatabase(data.dir);
    expect([...db.mappings().keys()]).toEqual(['things']);
    db.close();
  });

  it('a process that missed the change log reloads the mappings with the entities', async () => {
    const one = store();
    const two = store();
    await one.entities.putMapping('things', parseTypeMapping({ dynamic: 'false', properties: { code: { type: 'keyword' } } }));
    await one.entities.create('things', 'a', { ...entity('FR'), note: 'hidden' });
    const db = new EmbeddedDatabase(data.dir);
    db.pruneChanges(-1); // only the last change remains: the others are gone
    db.close();
    await one.entities.create('things', 'b', entity('FI'));
    expect(await two.entities.count('things', { prefix: { code: 'F' } }, null)).toEqual({ count: 2 });
    expect(await two.entities.count('things', { match: { note: 'hidden' } }, null)).toEqual({ count: 0 });
    expect((await two.entities.getMapping('things')).dynamic).toBe('false');
  });
});
