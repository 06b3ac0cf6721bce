import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ASSETS_PATH, ConsoleAssets, findConsoleDir } from './assets';

const ROOT = resolve(__dirname, '../../..');

describe('the console\'s files as installed', () => {
  it('are found from src/ and from the build in dist/src/ alike (console/ beside package.json)', () => {
    expect(findConsoleDir()).toBe(join(ROOT, 'console'));
    expect(findConsoleDir(join(ROOT, 'dist/src/transport/console'))).toBe(join(ROOT, 'console'));
  });

  it('every file a page names exists: the console\'s own and React 18 and GraphiQL 3 from node_modules', () => {
    const assets = new ConsoleAssets();
    for (const page of ['index.html', 'graphiql.html'] as const) {
      const html = assets.page(page);
      expect(html).not.toContain('{{');
      const urls = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]).filter((u) => u.startsWith(ASSETS_PATH));
      expect(urls.length).toBeGreaterThan(1);
      for (const url of urls) {
        const [hash, name] = url.slice(ASSETS_PATH.length + 1).split('/');
        const file = assets.lookup(hash, name);
        expect(file).toBeDefined();
        expect(existsSync(file!)).toBe(true);
      }
    }
    expect(assets.names().sort()).toEqual(['console.css', 'console.js', 'graphiql-boot.js', 'graphiql-page.css', 'graphiql.css', 'graphiql.js', 'react-dom.js', 'react.js']);
    expect(assets.lookup(assets.url('react.js').split('/')[3], 'react.js')).toBe(join(ROOT, 'node_modules/react/umd/react.production.min.js'));
  });

  it('no page or script of the console names another origin (works offline, no CDN)', () => {
    const assets = new ConsoleAssets();
    for (const page of ['index.html', 'graphiql.html'] as const) expect(assets.page(page)).not.toMatch(/(?:src|href)="(?!\/)/);
  });
});

describe('ConsoleAssets', () => {
  let dir: string;
  let packages: string;
  const hash = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16);

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'console-assets-'));
    packages = join(dir, 'node_modules');
    for (const name of ['console.js', 'console.css', 'graphiql-boot.js', 'graphiql-page.css']) writeFileSync(join(dir, name), `/* ${name} */`);
    for (const [pkg, file] of [['react', 'umd/react.production.min.js'], ['react-dom', 'umd/react-dom.production.min.js'], ['graphiql', 'graphiql.min.js'], ['graphiql', 'graphiql.min.css']]) {
      mkdirSync(join(packages, pkg, 'umd'), { recursive: true });
      writeFileSync(join(packages, pkg, file), `/* ${pkg} ${file} */`);
    }
    writeFileSync(join(dir, 'index.html'), '<script src="{{console.js}}"></script><link href="{{graphiql.css}}">');
    writeFileSync(join(dir, 'graphiql.html'), '<script src="{{nothing.js}}"></script>');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const assetsIn = () => new ConsoleAssets(dir, (pkg) => join(packages, pkg));

  it('names each file by the SHA-256 of its content, and a page by those URLs', () => {
    const assets = assetsIn();
    expect(assets.url('console.js')).toBe(`${ASSETS_PATH}/${hash('/* console.js */')}/console.js`);
    expect(assets.page('index.html')).toBe(
      `<script src="${ASSETS_PATH}/${hash('/* console.js */')}/console.js"></script><link href="${ASSETS_PATH}/${hash('/* graphiql graphiql.min.css */')}/graphiql.css">`,
    );
  });

  it('finds a file only under its current hash and a known name', () => {
    const assets = assetsIn();
    expect(assets.lookup(hash('/* console.js */'), 'console.js')).toBe(join(dir, 'console.js'));
    expect(assets.lookup(hash('/* react umd/react.production.min.js */'), 'react.js')).toBe(join(packages, 'react/umd/react.production.min.js'));
    expect(assets.lookup(hash('an older console.js'), 'console.js')).toBeUndefined();
    expect(assets.lookup(hash('/* console.js */'), 'index.html')).toBeUndefined();
    expect(assets.lookup(hash('/* console.js */'), '../console.js')).toBeUndefined();
    expect(assets.lookup(hash('/* console.js */'), '__proto__')).toBeUndefined();
  });

  it('a page naming a file the console does not serve is a mistake, told at once', () => {
    expect(() => assetsIn().page('graphiql.html')).toThrow(/no file named nothing.js/);
  });

  it('finds no console without a package.json above it', () => {
    expect(() => findConsoleDir('/')).toThrow(/no package.json above/);
  });
});
