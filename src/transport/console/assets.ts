/**
 * The console's files: its own pages, script and styles in `console/` at the package root (beside
 * package.json, found from src/… or dist/src/…, so `npm run build` needs no copy step), and the
 * GraphQL IDE's from node_modules (the UMD builds of React 18 and GraphiQL 3, installed with npm):
 * nothing is fetched from a CDN. Each file is served at /console/assets/<hash>/<name>, <hash> the
 * start of its content's SHA-256: a changed file gets a new URL, so every URL can be cached for a
 * year. The pages name their files as `{{name}}`, replaced by those URLs.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, extname, join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

export const ASSETS_PATH = '/console/assets';
export const CONSOLE_DIR = 'console';

/** Served name -> [npm package, file in it]. */
const PACKAGE_FILES: Record<string, readonly [string, string]> = {
  'react.js': ['react', 'umd/react.production.min.js'],
  'react-dom.js': ['react-dom', 'umd/react-dom.production.min.js'],
  'graphiql.js': ['graphiql', 'graphiql.min.js'],
  'graphiql.css': ['graphiql', 'graphiql.min.css'],
};
/** Served from console/ under their own names. */
const OWN_FILES = ['console.js', 'console.css', 'graphiql-boot.js', 'graphiql-page.css'];

export type PageName = 'index.html' | 'graphiql.html';

/** The encodings an asset is also served in (README "Console"). */
export type AssetEncoding = 'br' | 'gzip';

/** Content types of the served files, by extension. */
const CONTENT_TYPES: Record<string, string> = { '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8' };

interface Asset {
  file: string;
  hash: string;
}

/** The folder `console/` beside the first package.json above `from`. */
export function findConsoleDir(from: string = __dirname): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return join(dir, CONSOLE_DIR);
    if (dirname(dir) === dir) throw new Error(`no package.json above ${from}: the console's files cannot be found`);
  }
}

const packageDir = (name: string): string => dirname(require.resolve(`${name}/package.json`));

export class ConsoleAssets {
  private readonly files = new Map<string, string>();
  private readonly hashed = new Map<string, Asset>();
  private readonly pages = new Map<PageName, string>();
  private readonly encoded = new Map<string, Promise<Buffer>>();

  constructor(
    private readonly dir: string = findConsoleDir(),
    resolvePackage: (name: string) => string = packageDir,
  ) {
    for (const name of OWN_FILES) this.files.set(name, join(dir, name));
    for (const [name, [pkg, file]] of Object.entries(PACKAGE_FILES)) this.files.set(name, join(resolvePackage(pkg), file));
  }

  /** The names served under ASSETS_PATH. */
  names(): string[] {
    return [...this.files.keys()];
  }

  /** The URL of a served file (its content read and hashed once). */
  url(name: string): string {
    return `${ASSETS_PATH}/${this.asset(name).hash}/${name}`;
  }

  /** The file behind /console/assets/<hash>/<name>, or undefined when there is none (or the hash is another version's). */
  lookup(hash: string, name: string): string | undefined {
    if (!this.files.has(name)) return undefined;
    const asset = this.asset(name);
    return asset.hash === hash ? asset.file : undefined;
  }

  /**
   * A served file compressed (brotli or gzip), with its content type: made once, off the event loop
   * (zlib's thread pool: brotli takes about a second for the IDE's 3.5 MB script, which becomes
   * about 0.6 MB), and kept.
   */
  compressed(name: string, encoding: AssetEncoding): Promise<{ body: Buffer; type: string }> {
    const key = `${encoding}:${name}`;
    let body = this.encoded.get(key);
    if (body === undefined) {
      const raw = readFileSync(this.asset(name).file);
      body = encoding === 'br' ? brotliAsync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length } }) : gzipAsync(raw, { level: 9 });
      this.encoded.set(key, body);
    }
    const type = CONTENT_TYPES[extname(name)] ?? 'application/octet-stream';
    return body.then((b) => ({ body: b, type }));
  }

  /** A page of console/ with each `{{name}}` replaced by that file's URL (rendered once). */
  page(name: PageName): string {
    let html = this.pages.get(name);
    if (html === undefined) {
      html = readFileSync(join(this.dir, name), 'utf8').replace(/\{\{([^{}]+)\}\}/g, (_whole, asset: string) => this.url(asset));
      this.pages.set(name, html);
    }
    return html;
  }

  private asset(name: string): Asset {
    let asset = this.hashed.get(name);
    if (asset === undefined) {
      const file = this.files.get(name);
      if (file === undefined) throw new Error(`the console has no file named ${name}`);
      asset = { file, hash: createHash('sha256').update(readFileSync(file)).digest('hex').slice(0, 16) };
      this.hashed.set(name, asset);
    }
    return asset;
  }
}
