/**
 * The console's HTTP routes (README "Console"), on the express app before GraphQL:
 * - `GET /`: the console page (CONSOLE on);
 * - `GET /graphql` from a browser, i.e. preferring text/html as Apollo's landing page decides it: the
 *   GraphiQL IDE (GRAPHQL_LANDING_PAGE, default CONSOLE); any other request goes on to Apollo;
 * - `GET /console/assets/<hash>/<name>`: the files of both (served when either is on), brotli- or
 *   gzip-compressed when the request's Accept-Encoding takes it.
 * Anything else, an unknown asset or a stale hash included, goes on to the app's JSON 404.
 */
import type { Express, Request, RequestHandler } from 'express';
import { ASSETS_PATH, ConsoleAssets, type PageName } from './assets';
import { ASSET_HEADERS, pageHeaders } from './securityHeaders';

export interface ConsoleRoutesOptions {
  /** The console page at `/`. */
  page: boolean;
  /** The GraphQL IDE at `graphqlPath`. */
  ide: boolean;
  graphqlPath: string;
  assets?: ConsoleAssets;
}

/**
 * Whether a GET asks for a page: Apollo's own test (ApolloServer.prefersHTML), text/html chosen
 * over the GraphQL answer types. Without an Accept header, JSON.
 */
export function prefersHtml(req: Request): boolean {
  if (req.headers.accept === undefined) return false;
  return req.accepts(['application/json', 'application/graphql-response+json', 'multipart/mixed', 'text/html']) === 'text/html';
}

const YEAR_MS = 365 * 24 * 3600 * 1000;

export function mountConsole(app: Express, options: ConsoleRoutesOptions): void {
  if (!options.page && !options.ide) return;
  const assets = options.assets ?? new ConsoleAssets();
  const sendPage = (name: PageName): RequestHandler => (req, res) => {
    const html = assets.page(name);
    res.writeHead(200, { ...pageHeaders(req.headers.host), 'Content-Length': String(Buffer.byteLength(html)) });
    res.end(html);
  };

  app.get(`${ASSETS_PATH}/:hash/:name`, (req, res, next) => {
    const name = String(req.params.name);
    const file = assets.lookup(String(req.params.hash), name);
    if (file === undefined) return next();
    // compressed when the browser takes it (every browser does), brotli before gzip whatever order they are listed in
    const encoding = req.headers['accept-encoding'] === undefined ? false : req.acceptsEncodings('br') || req.acceptsEncodings('gzip');
    if (encoding === 'br' || encoding === 'gzip') {
      assets.compressed(name, encoding).then(
        ({ body, type }) => {
          res.writeHead(200, { ...ASSET_HEADERS, 'Content-Type': type, 'Content-Encoding': encoding, Vary: 'Accept-Encoding', 'Content-Length': String(body.length) });
          res.end(body);
        },
        next,
      );
      return;
    }
    res.sendFile(file, { headers: { ...ASSET_HEADERS, Vary: 'Accept-Encoding' }, cacheControl: false, maxAge: YEAR_MS, dotfiles: 'deny' }, (err) => {
      if (err !== undefined && !res.headersSent) next();
    });
  });
  if (options.page) app.get('/', sendPage('index.html'));
  if (options.ide) {
    const ide = sendPage('graphiql.html');
    app.get(options.graphqlPath, (req, res, next) => (prefersHtml(req) ? ide(req, res, next) : next()));
  }
}
