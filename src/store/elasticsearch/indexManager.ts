/**
 * Indices are created on first write, with their definition (mappings.ts): a HEAD tells whether
 * the index exists, and a create follows when it does not. Two instances creating the same index
 * at once is fine: Elasticsearch creates it once, with the same definition, and the other gets
 * resource_already_exists_exception. Known indices are remembered for the life of the process
 * (an index deleted behind a running gateway would be re-created by Elasticsearch's auto-create
 * without this definition: restart the gateways after deleting indices by hand).
 */
import type { Backend } from './backend';
import { errorTypeOf } from './errors';
import type { IndexDefinition } from './mappings';

export class IndexManager {
  private readonly known = new Set<string>();
  private readonly creating = new Map<string, Promise<void>>();

  constructor(private readonly backend: Backend) {}

  async ensure(index: string, definition: () => IndexDefinition): Promise<void> {
    if (this.known.has(index)) return;
    let pending = this.creating.get(index);
    if (pending === undefined) {
      pending = this.create(index, definition).finally(() => this.creating.delete(index));
      this.creating.set(index, pending);
    }
    await pending;
  }

  private async create(index: string, definition: () => IndexDefinition): Promise<void> {
    const exists = await this.backend.call('write', (client) => client.indices.exists({ index }));
    if (!exists) {
      try {
        const { settings, mappings } = definition();
        await this.backend.call('write', (client) => client.indices.create({ index, settings, mappings }));
      } catch (err) {
        if (errorTypeOf(err) !== 'resource_already_exists_exception') throw err;
      }
    }
    this.known.add(index);
  }
}
