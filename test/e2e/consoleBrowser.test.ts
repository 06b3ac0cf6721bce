/**
 * The console at work in a real headless Chromium, driven by playwright-core (README "Console"):
 * sign in with a token, search with the query DSL (hits, scores, sources, total; the error
 * envelope's message), create an API key (its token shown once: gone after a reload), revoke it;
 * GraphiQL at /graphql runs a query over HTTP and a subscription over graphql-ws. Throughout, the
 * browser asks nothing of another origin (any such request is recorded, aborted and fails the
 * test), the Content-Security-Policy blocks nothing the pages need, and the token never appears in
 * a URL. Skipped with a message when no Chromium is installed (test/support/browser.ts).
 */
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { findChromium } from '../support/browser';
import { request, startTestServer, type TestServer } from '../support/testServer';

// The page's globals, for the functions that run in the page (this project's TypeScript has no DOM lib).
declare const window: any;
declare const document: any;
declare const sessionStorage: any;
declare const localStorage: any;

const found = findChromium();
if ('missing' in found) {
  console.warn(`Skipping the console's browser test: ${found.missing}. Install one (Debian: apt-get install -y chromium-headless-shell) to run it.`);
}
const describeWithBrowser = 'path' in found ? describe : describe.skip;

jest.setTimeout(60_000);

/** What a browser context did that it should not have: requests elsewhere, CSP violations, script errors, URLs with the token. */
interface Watch {
  context: BrowserContext;
  page: Page;
  foreign: string[];
  urls: string[];
  sockets: string[];
  errors: string[];
}

describeWithBrowser('the console in headless Chromium', () => {
  let server: TestServer;
  let browser: Browser;
  let alice: string; // writer of tenant acme
  let bob: string; // no role, tenant acme
  let carol: string; // no role, tenant globex
  const watches: Watch[] = [];

  beforeAll(async () => {
    server = await startTestServer();
    [alice, bob, carol] = await Promise.all([
      server.token({ sub: 'alice', tenantId: 'acme', roles: ['writer'] }),
      server.token({ sub: 'bob', tenantId: 'acme', roles: [] }),
      server.token({ sub: 'carol', tenantId: 'globex', roles: ['writer'] }),
    ]);
    const create = async (token: string, id: string, body: Record<string, unknown>) => {
      const res = await request(server, 'POST', `/v4/entity/countries?_id=${id}`, { token, body });
      expect(res.status).toBe(200);
    };
    await create(alice, 'fr', { name: 'France', code: 'FR' });
    await create(alice, 'fr-metro', { name: 'Metropolitan France', code: 'FX' });
    await create(alice, 'de', { name: 'Germany', code: 'DE' });
    await create(carol, 'fr-globex', { name: 'France of Globex', code: 'FG' });
    // a key of bob's: never in alice's list
    expect((await request(server, 'POST', '/v4/api-keys/_create?_id=bobs-key', { token: bob, body: { description: "bob's" } })).status).toBe(200);
    browser = await chromium.launch({ executablePath: (found as { path: string }).path, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** A fresh browser context (its own sessionStorage) watched for requests to other origins. */
  async function open(): Promise<Watch> {
    const host = new URL(server.url).host;
    const context = await browser.newContext();
    const watch: Watch = { context, page: undefined as unknown as Page, foreign: [], urls: [], sockets: [], errors: [] };
    await context.route('**/*', (route) => {
      const url = route.request().url();
      watch.urls.push(url);
      if (new URL(url).host !== host) {
        watch.foreign.push(url);
        return route.abort();
      }
      return route.continue();
    });
    // every Content-Security-Policy violation, reported by the page itself
    await context.addInitScript(() => {
      const seen: string[] = ((window as unknown as { cspViolations: string[] }).cspViolations = []);
      document.addEventListener('securitypolicyviolation', (e: { violatedDirective: string; blockedURI: string }) => seen.push(`${e.violatedDirective} ${e.blockedURI}`));
    });
    watch.page = await context.newPage();
    watch.page.on('pageerror', (e) => watch.errors.push(e.message));
    watch.page.on('websocket', (ws) => watch.sockets.push(ws.url()));
    watch.page.on('dialog', (dialog) => void dialog.accept());
    watches.push(watch);
    return watch;
  }

  afterEach(async () => {
    for (const watch of watches.splice(0)) {
      const violations = await watch.page.evaluate(() => (window as unknown as { cspViolations?: string[] }).cspViolations ?? []).catch(() => []);
      await watch.context.close();
      expect(watch.foreign).toEqual([]);
      expect(violations).toEqual([]);
      expect(watch.errors).toEqual([]);
      for (const token of [alice, bob, carol]) expect(watch.urls.filter((u) => u.includes(token))).toEqual([]);
      const host = new URL(server.url).host;
      for (const socket of watch.sockets) expect(socket).toBe(`ws://${host}/graphql`);
    }
  });

  async function signIn(page: Page, token: string): Promise<void> {
    await page.goto(`${server.url}/`);
    await page.fill('#token', token);
    await page.click('#sign-in-form button[type=submit]');
    await page.waitForSelector('#who:not([hidden])');
  }

  async function search(page: Page, type: string, body: string): Promise<void> {
    await page.fill('#entity-type', type);
    await page.fill('#search-body', body);
    await page.click('#search-form button[type=submit]');
    await page.waitForFunction(
      () => document.getElementById('search')!.getAttribute('aria-busy') !== 'true' && (!document.getElementById('search-total')!.hidden || !document.getElementById('search-error')!.hidden),
    );
  }

  const hitRows = (page: Page) =>
    page.$$eval('#hits tbody tr', (rows) =>
      rows.map((row) => {
        const cells = row.querySelectorAll('td');
        return { _id: cells[0].textContent, _score: Number(cells[1].textContent), _source: JSON.parse(cells[2].textContent!) };
      }),
    );
  /** Waits for the key list's answer. */
  const keysListed = (page: Page) => page.waitForFunction(() => document.getElementById('keys')!.getAttribute('aria-busy') === 'false');
  const keyIds = (page: Page) => page.$$eval('#key-list tbody tr', (rows) => rows.map((row) => (row as any).dataset.keyId));

  it('signs in with a token, searches with the query DSL (hits, scores, sources, total) and shows refusals', async () => {
    const { page } = await open();
    await signIn(page, alice);
    expect(await page.textContent('#who-text')).toBe('Signed in as alice of tenant acme (writer)');
    expect(await page.inputValue('#search-body')).toBe('{"query":{"match":{"name":"france"}}}');
    await search(page, 'countries', await page.inputValue('#search-body'));
    expect(await page.textContent('#search-total')).toBe('total: 2, shown: 2');
    const hits = await hitRows(page);
    // France first (the shorter name scores higher); Globex's France is another tenant's: never shown
    expect(hits.map((h) => h._id)).toEqual(['fr', 'fr-metro']);
    expect(hits[0]._score).toBeGreaterThan(hits[1]._score);
    expect(hits[1]._score).toBeGreaterThan(0);
    expect(hits[0]._source).toMatchObject({ name: 'France', code: 'FR', id: 'fr', entityType: 'country' });

    // the error envelope's message, with its catalogue id
    await search(page, 'countries', '{"query":{"nope":{}}}');
    const error = await page.textContent('#search-error');
    expect(error).toContain('nope');
    expect(error).toContain('(services.storage.invalid_search_query, 400)');
    expect(await page.isHidden('#hits')).toBe(true);
    await search(page, 'country', '{}');
    expect(await page.textContent('#search-error')).toMatch(/plural.*countries.*\(api\.assert\.invalid_argument, 400\)|countries/);
    await search(page, 'countries', '{"query":');
    expect(await page.textContent('#search-error')).toMatch(/^The body is not JSON/);
    // sorted, with another size
    await search(page, 'countries', '{"query":{"match_all":{}},"sort":[{"code.keyword":"asc"}],"size":2}');
    expect(await page.textContent('#search-total')).toBe('total: 3, shown: 2');
    expect((await hitRows(page)).map((h) => h._id)).toEqual(['de', 'fr']);
  });

  it('a refused token is told and not kept; signing out forgets the token', async () => {
    const { page } = await open();
    await page.goto(`${server.url}/`);
    await page.fill('#token', 'not-a-jwt');
    await page.click('#sign-in-form button[type=submit]');
    await page.waitForSelector('#sign-in-error:not([hidden])');
    expect(await page.textContent('#sign-in-error')).toMatch(/^This token is refused: .*\(security\.token\.invalid, 401\)$/);
    expect(await page.isHidden('#search')).toBe(true);
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);

    await signIn(page, `Bearer ${carol}`); // pasted with its scheme: accepted too
    expect(await page.textContent('#who-text')).toBe('Signed in as carol of tenant globex (writer)');
    await search(page, 'countries', '{"query":{"match":{"name":"france"}}}');
    expect((await hitRows(page)).map((h) => h._id)).toEqual(['fr-globex']);
    await page.click('#sign-out');
    expect(await page.isVisible('#sign-in')).toBe(true);
    expect(await page.isHidden('#search')).toBe(true);
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    await page.reload();
    expect(await page.isVisible('#sign-in')).toBe(true);
  });

  it("lists the caller's API keys, creates one (its token shown once), revokes it", async () => {
    const { page } = await open();
    await signIn(page, bob);
    await keysListed(page);
    expect(await keyIds(page)).toEqual(['bobs-key']);
    await page.click('#sign-out');
    await signIn(page, alice);
    await keysListed(page);
    expect(await page.textContent('#keys-total')).toBe('0 keys');
    expect(await keyIds(page)).toEqual([]); // bob's key is bob's

    await page.fill('#key-description', 'ci pipeline');
    await page.fill('#key-expires', '2h');
    await page.click('#create-key-form button[type=submit]');
    await page.waitForSelector('#new-key:not([hidden])');
    const id = (await page.textContent('#new-key-id'))!;
    const token = await page.inputValue('#new-key-token');
    expect(token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(await page.textContent('#new-key .warning')).toContain('shown once');
    await page.click('#copy-key');
    await page.waitForFunction(() => document.getElementById('copy-status')!.textContent !== '');
    await page.waitForFunction((keyId) => [...document.querySelectorAll('#key-list tbody tr')].some((r) => (r as any).dataset.keyId === keyId), id);
    const row = await page.$$eval('#key-list tbody tr', (rows) => rows.map((r) => [...r.querySelectorAll('td')].slice(0, 3).map((c) => c.textContent)));
    expect(row).toEqual([[id, 'ci pipeline', 'alice']]);
    // the token is a bearer token of alice's
    const me = await request(server, 'GET', '/v4/_me', { token });
    expect(me.status).toBe(200);
    expect(me.body.result._source.apiKeyId).toBe(id);

    // reloaded: still signed in, the key listed, its token nowhere on the page
    await page.reload();
    await page.waitForFunction(() => document.querySelectorAll('#key-list tbody tr').length === 1);
    expect(await page.isHidden('#new-key')).toBe(true);
    expect(await page.inputValue('#new-key-token')).toBe('');
    expect(await page.content()).not.toContain(token);
    expect(await page.evaluate((t) => JSON.stringify({ ...sessionStorage, ...localStorage }).includes(t), token)).toBe(false);

    // revoked (after the confirmation): gone from the list, and its token stops working
    await page.click(`#key-list tbody tr[data-key-id="${id}"] button.revoke`);
    await page.waitForFunction(() => document.querySelectorAll('#key-list tbody tr').length === 0);
    expect(await page.textContent('#keys-total')).toBe('0 keys');
    expect((await request(server, 'GET', '/v4/_me', { token })).status).toBe(401);
  });

  it('a key refused by the gateway shows its message', async () => {
    const { page } = await open();
    await signIn(page, alice);
    await page.fill('#key-expires', 'soon');
    await page.click('#create-key-form button[type=submit]');
    await page.waitForSelector('#keys-error:not([hidden])');
    expect(await page.textContent('#keys-error')).toContain('(api.assert.invalid_argument, 400)');
    expect(await page.isHidden('#new-key')).toBe(true);
  });

  /** The text of GraphiQL's result pane, once it holds `expected`. */
  async function resultHolding(page: Page, expected: string): Promise<string> {
    const read = () => ((document.querySelector('.result-window .CodeMirror') as unknown as { CodeMirror?: { getValue(): string } } | null)?.CodeMirror?.getValue() ?? '');
    // polled from here with page.evaluate: a string predicate given to waitForFunction is evaluated
    // with eval in the page, which the IDE's CSP (no 'unsafe-eval') refuses
    const deadline = Date.now() + 30_000;
    for (;;) {
      const text = await page.evaluate(read);
      if (text.includes(expected)) return text;
      if (Date.now() > deadline) throw new Error(`GraphiQL's result pane never held ${expected}; it holds: ${text}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  const headersEditor = (page: Page) =>
    page.evaluate(() =>
      [...document.querySelectorAll('.CodeMirror')].map((e) => (e as unknown as { CodeMirror: { getValue(): string } }).CodeMirror.getValue()).find((v) => v.includes('Authorization')),
    );

  it('GraphiQL at /graphql runs a query with the console\'s token, and a subscription over graphql-ws', async () => {
    const { page, sockets } = await open();
    await signIn(page, alice);
    // first visit: the example query, run as it is
    await page.goto(`${server.url}/graphql`);
    await page.waitForSelector('.graphiql-execute-button');
    await page.click('.graphiql-execute-button');
    const example = JSON.parse(await resultHolding(page, '"total"'));
    expect(example.data.search.hits.map((h: { entity: { slug: string; name: string } }) => [h.entity.slug, h.entity.name])).toEqual([
      ['france', 'France'],
      ['metropolitan-france', 'Metropolitan France'],
    ]);
    const query = '{ search(type: "countries", query: {match: {name: "france"}}) { total hits { id score } } }';
    await page.goto(`${server.url}/graphql?query=${encodeURIComponent(query)}`);
    await page.waitForSelector('.graphiql-execute-button');
    expect(JSON.parse((await headersEditor(page))!)).toEqual({ Authorization: `Bearer ${alice}` });
    await page.click('.graphiql-execute-button');
    const result = JSON.parse(await resultHolding(page, '"total"'));
    expect(result.data.search.total).toBe(2);
    expect(result.data.search.hits.map((h: { id: string }) => h.id)).toEqual(['fr', 'fr-metro']);
    expect(result.data.search.hits[0].score).toBeGreaterThan(0);

    await page.goto(`${server.url}/graphql?query=${encodeURIComponent('subscription { entityChanged(type: "countries") { action id } }')}`);
    await page.waitForSelector('.graphiql-execute-button');
    await page.click('.graphiql-execute-button');
    // once subscribed (the gateway counts it), a change arrives in the result pane
    await waitFor(() => server.gateway.metrics.text().then((t) => /gateway_subscriptions\{[^}]*transport="graphql"[^}]*\} 1/.test(t)));
    expect((await request(server, 'POST', '/v4/entity/countries?_id=it', { token: alice, body: { name: 'Italy', code: 'IT' } })).status).toBe(200);
    expect(JSON.parse(await resultHolding(page, '"it"'))).toEqual({ data: { entityChanged: { action: 'CREATE', id: 'it' } } });
    expect(sockets.length).toBeGreaterThan(0);
  });

  it('GraphiQL without a console session: a placeholder token, sent as no token; the gateway says what is wrong', async () => {
    const { page, urls } = await open();
    const sent: (string | undefined)[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST') sent.push(r.headers().authorization);
    });
    await page.goto(`${server.url}/graphql?query=${encodeURIComponent('{ me { userId } }')}`);
    await page.waitForSelector('.graphiql-execute-button');
    expect(JSON.parse((await headersEditor(page))!)).toEqual({ Authorization: 'Bearer <token>' });
    await page.click('.graphiql-execute-button');
    const result = JSON.parse(await resultHolding(page, '"errors"'));
    expect(result.errors[0].extensions).toMatchObject({ code: 'security.rights.unauthorized', status: 401 });
    // the schema (introspection) and the query: both without an Authorization header
    expect(sent.length).toBeGreaterThanOrEqual(2);
    expect(sent.every((h) => h === undefined)).toBe(true);
    expect(urls.some((u) => u.endsWith('/graphql'))).toBe(true);

    // a token typed into the Headers tab is sent
    await page.evaluate((token: string) => {
      const editor = [...document.querySelectorAll('.CodeMirror')].map((e: any) => e.CodeMirror).find((cm: any) => cm.getValue().includes('Authorization'));
      editor.setValue(JSON.stringify({ Authorization: `Bearer ${token}` }));
    }, bob);
    await page.click('.graphiql-execute-button');
    expect(JSON.parse(await resultHolding(page, '"userId"'))).toEqual({ data: { me: { userId: 'bob' } } });
  });
});

/** Polls `check` until it holds (Jest's timeout ends a wait that never does). */
async function waitFor(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 50));
}
