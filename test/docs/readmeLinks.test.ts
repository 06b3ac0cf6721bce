/**
 * The README stands on its own: every relative link resolves to a file of the repository (tracked,
 * or new and not ignored: never node_modules/, dist/, data/), every `#anchor` to a heading of the
 * README, and no link or quoted path leads outside the repository (`../`).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { headingAnchors, markdownLinks, quotedRepoPaths } from '../support/markdown';

const ROOT = join(__dirname, '..', '..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** Files and folders of the repository as a clone has them (tracked, or added and not ignored). */
function repositoryPaths(): Set<string> {
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter((f) => f !== '');
  const paths = new Set<string>();
  for (const file of files) {
    const parts = file.split('/');
    for (let i = 1; i <= parts.length; i++) paths.add(parts.slice(0, i).join('/'));
  }
  return paths;
}

describe('README.md stands on its own', () => {
  const paths = repositoryPaths();
  const links = markdownLinks(README);

  it('has links to check (the parser finds them)', () => {
    expect(links.some((l) => l.target === 'schema.graphql')).toBe(true);
    expect(links.some((l) => l.target.startsWith('#'))).toBe(true);
  });

  it('every relative link is a file or folder of the repository', () => {
    const broken = links
      .filter((l) => !/^[a-z][a-z0-9+.-]*:/i.test(l.target) && !l.target.startsWith('#'))
      .filter((l) => {
        const path = decodeURIComponent(l.target.split('#')[0]).replace(/^\.\//, '').replace(/\/$/, '');
        return path.startsWith('../') || path.startsWith('/') || !paths.has(path);
      })
      .map((l) => `line ${l.line}: ${l.target}`);
    expect(broken).toEqual([]);
  });

  it('every #anchor is a heading of the README', () => {
    const anchors = headingAnchors(README);
    const broken = links.filter((l) => l.target.startsWith('#') && !anchors.has(l.target.slice(1))).map((l) => `line ${l.line}: ${l.target}`);
    expect(broken).toEqual([]);
  });

  it('every path of the repository it quotes (`src/…`, `test/…`, `docs/…`) exists, and none is outside it', () => {
    const quoted = quotedRepoPaths(README);
    expect(quoted.length).toBeGreaterThan(5);
    const missing = quoted.filter((q) => !paths.has(q.path.replace(/\/$/, ''))).map((q) => `line ${q.line}: ${q.path}`);
    expect(missing).toEqual([]);
    const outside = README.split('\n')
      .map((text, i) => ({ text, line: i + 1 }))
      .filter(({ text }) => /\]\(\.\.\/|`\.\.\/|DESIGN\.md/.test(text))
      .map(({ line, text }) => `line ${line}: ${text.trim()}`);
    expect(outside).toEqual([]);
  });
});
