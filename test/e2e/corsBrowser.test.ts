/**
 * A real browser calls the API cross-origin: headless Chromium opens a page served from one origin
 * (http://127.0.0.1:<page port>) whose script fetches the gateway on another (http://127.0.0.1:<its
 * port>): preflighted REST and GraphQL calls with a bearer token, reading the exposed X-Request-Id,
 * succeed where CORS_ORIGINS allows the page's origin and fail (the browser withholds the answer)
 * where it does not. Skipped with a message when no Chromium is installed (test/support/browser.ts).
 */
import { findChromium, startPageServer, visit, type PageServer } from '../support/browser';
import { startTestServer, type TestServer } from '../support/testServer';

const chromium = findChromium();
if ('missing' in chromium) {
  console.warn(`Skipping the cross-origin browser test: ${chromium.missing}. Install one (Debian: apt-get install -y chromium-headless-shell) to run it.`);
}
const describeWithBrowser = 'path' in chromium ? describe : describe.skip;

interface Step {
  name: string;
  url: string;
  init: { method: string; headers: Record<string, string>; body?: string };
}
type Seen = { name: string; status: number; requestId: string | null; body: any } | { name: string; error: string };

/** A page whose script runs each fetch in turn and posts what it saw (or the error) to /report. */
function pageRunning(steps: Step[]): string {
  const plan = JSON.stringify(steps).replace(/</g, '\\u003c');
  return `<!doctype html><meta charset="utf-8"><title>cross-origin client</title><script>
(async () => {
  const seen = [];
  for (const step of ${plan}) {
    try {
      const res = await fetch(step.url, step.init);
      seen.push({ name: step.name, status: res.status, requestId: res.headers.get('X-Request-Id'), body: await res.json() });
    } catch (error) {
      seen.push({ name: step.name, error: String(error) });
    }
  }
  await fetch('/report', { method: 'POST', body: JSON.stringify(seen) });
})();
</script>`;
}

const json = (token: string, requestId: string) => ({ Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', 'X-Request-Id': requestId });

describeWithBrowser('a browser page on another origin', () => {
  let page: PageServer;
  let listed: TestServer; // CORS_ORIGINS = the page's origin
  let other: TestServer; // CORS_ORIGINS = another origin only
  let any: TestServer; // the default outside production: *

  beforeAll(async () => {
    page = await startPageServer();
    [listed, other, any] = await Promise.all([
      startTestServer({ env: { CORS_ORIGINS: `https://app.example.com,${page.origin}` } }),
      startTestServer({ env: { CORS_ORIGINS: 'https://app.example.com' } }),
      startTestServer(),
    ]);
  });
  afterAll(async () => {
    await Promise.all([listed, other, any].map((s) => s?.stop()));
    await page?.close();
  });

  it('calls REST and GraphQL where its origin is allowed, and is refused where it is not', async () => {
    const servers = { listed, other, any };
    const tokens = Object.fromEntries(
      await Promise.all(Object.entries(servers).map(async ([name, s]) => [name, await s.token({ sub: 'alice', tenantId: 'acme', roles: ['writer'] })])),
    ) as Record<keyof typeof servers, string>;
    const steps: Step[] = [
      {
        name: 'REST create, allowed origin',
        url: `${listed.url}/v4/entity/countries?_id=atlantis`,
        init: { method: 'POST', headers: json(tokens.listed, 'browser-create'), body: JSON.stringify({ name: 'Atlantis', code: 'AX' }) },
      },
      {
        name: 'REST search, allowed origin',
        url: `${listed.url}/v4/entity/countries/search`,
        init: { method: 'POST', headers: json(tokens.listed, 'browser-search'), body: JSON.stringify({ query: { match: { name: 'atlantis' } } }) },
      },
      {
        name: 'REST delete, allowed origin',
        url: `${listed.url}/v4/entity/countries/atlantis`,
        init: { method: 'DELETE', headers: { Authorization: `Bearer ${tokens.listed}` } },
      },
      {
        name: 'GraphQL POST, allowed origin',
        url: `${listed.url}/graphql`,
        init: { method: 'POST', headers: json(tokens.listed, 'browser-gql'), body: JSON.stringify({ query: '{ me { tenantId } }' }) },
      },
      {
        name: 'GraphQL GET with the preflight header Apollo asks for, allowed origin',
        url: `${listed.url}/graphql?query=${encodeURIComponent('{ me { userId } }')}`,
        init: { method: 'GET', headers: { Authorization: `Bearer ${tokens.listed}`, 'Apollo-Require-Preflight': 'true' } },
      },
      {
        name: 'REST search, origin not listed',
        url: `${other.url}/v4/entity/countries/search`,
        init: { method: 'POST', headers: json(tokens.other, 'browser-refused'), body: '{}' },
      },
      {
        name: 'GraphQL POST, origin not listed',
        url: `${other.url}/graphql`,
        init: { method: 'POST', headers: json(tokens.other, 'browser-refused-gql'), body: JSON.stringify({ query: '{ me { tenantId } }' }) },
      },
      {
        name: 'REST search, any origin',
        url: `${any.url}/v4/entity/countries/search`,
        init: { method: 'POST', headers: json(tokens.any, 'browser-any'), body: '{}' },
      },
    ];
    page.setPage(pageRunning(steps));
    const seen = (await visit((chromium as { path: string }).path, page, `${page.origin}/`)) as Seen[];
    const by = Object.fromEntries(seen.map((s) => [s.name, s]));

    expect(by['REST create, allowed origin']).toMatchObject({ status: 200, requestId: 'browser-create', body: { result: { _id: 'atlantis' } } });
    expect(by['REST search, allowed origin']).toMatchObject({ status: 200, requestId: 'browser-search', body: { result: { total: 1, hits: [{ _id: 'atlantis' }] } } });
    expect(by['REST delete, allowed origin']).toMatchObject({ status: 200, body: { result: { _id: 'atlantis' } } });
    expect(by['GraphQL POST, allowed origin']).toMatchObject({ status: 200, requestId: 'browser-gql', body: { data: { me: { tenantId: 'acme' } } } });
    expect(by['GraphQL GET with the preflight header Apollo asks for, allowed origin']).toMatchObject({ status: 200, body: { data: { me: { userId: 'alice' } } } });
    // the browser withholds the answer: fetch rejects with a TypeError ("Failed to fetch")
    expect(by['REST search, origin not listed']).toEqual({ name: 'REST search, origin not listed', error: expect.stringMatching(/^TypeError/) });
    expect(by['GraphQL POST, origin not listed']).toEqual({ name: 'GraphQL POST, origin not listed', error: expect.stringMatching(/^TypeError/) });
    expect(by['REST search, any origin']).toMatchObject({ status: 200, requestId: 'browser-any', body: { status: 200 } });
  });
});
