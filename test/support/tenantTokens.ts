/** The callers most end-to-end suites need: an admin, a writer and a reader of tenant acme, a reader of tenant globex. */
import type { TestServer } from './testServer';

export interface TenantTokens {
  admin: string;
  writerAcme: string;
  readerAcme: string;
  readerGlobex: string;
}

export async function tenantTokens(server: Pick<TestServer, 'token'>): Promise<TenantTokens> {
  return {
    admin: await server.token({ sub: 'root', tenantId: 'hq', roles: ['admin'] }),
    writerAcme: await server.token({ sub: 'wanda', tenantId: 'acme', roles: ['writer'] }),
    readerAcme: await server.token({ sub: 'rita', tenantId: 'acme', roles: [] }),
    readerGlobex: await server.token({ sub: 'gus', tenantId: 'globex', roles: [] }),
  };
}
