/**
 * What the README tests read from Markdown, parsed by markdown-it (CommonMark): its links, the
 * anchors of its headings, the repository paths it quotes, and its fenced code blocks with what
 * surrounds them.
 */
import MarkdownIt from 'markdown-it';
import type Token from 'markdown-it/lib/token.mjs';

const md = new MarkdownIt();

export interface Link {
  target: string;
  /** 1-based line of the link in the document. */
  line: number;
}

export interface FencedBlock {
  /** The info string's first word: `sh`, `json`, `` (none). */
  lang: string;
  content: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** 1-based line of the closing fence. */
  endLine: number;
  /** The document's text between the previous block (or heading) and this one. */
  before: string;
  /** The text of the last heading before it ('' if none). */
  heading: string;
}

function inlineText(token: Token): string {
  return (token.children ?? []).map((c) => (c.type === 'text' || c.type === 'code_inline' ? c.content : '')).join('');
}

/** Every link (`[text](target)`, autolinks, reference links) with its line. */
export function markdownLinks(source: string): Link[] {
  const lines = source.split('\n');
  const links: Link[] = [];
  for (const token of md.parse(source, {})) {
    if (token.type !== 'inline' || token.map === null) continue;
    for (const child of token.children ?? []) {
      const href = child.type === 'link_open' ? child.attrGet('href') : null;
      if (href === null) continue;
      const [from, to] = token.map;
      const at = lines.slice(from, to).findIndex((l) => l.includes(href) || l.includes(decodeURI(href)));
      links.push({ target: href, line: from + Math.max(at, 0) + 1 });
    }
  }
  return links;
}

/**
 * GitHub's anchor for a heading: lower case, every character but letters, digits, marks, `-`,
 * `_` and spaces dropped, spaces made `-`, a repeated anchor numbered (`-1`, `-2`). Written here:
 * github-slugger, the package with GitHub's rule, ships as an ES module only, which Jest's
 * CommonJS module system does not load.
 */
export function headingAnchors(source: string): Set<string> {
  const anchors = new Set<string>();
  const tokens = md.parse(source, {});
  tokens.forEach((token, i) => {
    if (token.type !== 'heading_open') return;
    const base = inlineText(tokens[i + 1])
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\p{M}\-_ ]/gu, '')
      .replace(/ /g, '-');
    let anchor = base;
    for (let n = 1; anchors.has(anchor); n++) anchor = `${base}-${n}`;
    anchors.add(anchor);
  });
  return anchors;
}

/** Top folders of the repository whose files the README may quote in `code`. */
const REPO_FOLDERS = ['src', 'test', 'docs', 'bench', 'scripts', '.ci'];

/**
 * The repository paths quoted as inline code (`src/core/errors.ts`, `test/e2e`, `.ci/run`) and the
 * Markdown files named anywhere in the text (`docs/elasticsearch.md`, `DESIGN.md`), with their lines.
 */
export function quotedRepoPaths(source: string): { path: string; line: number }[] {
  const found: { path: string; line: number }[] = [];
  for (const token of md.parse(source, {})) {
    if (token.type !== 'inline' || token.map === null) continue;
    for (const child of token.children ?? []) {
      if (child.type !== 'code_inline') continue;
      const path = child.content.replace(/^\.\//, '');
      if (/^[\w.-]+(\/[\w.*-]*)*$/.test(path) && REPO_FOLDERS.includes(path.split('/')[0]) && !path.includes('*')) found.push({ path, line: token.map[0] + 1 });
    }
  }
  source.split('\n').forEach((text, i) => {
    for (const m of text.matchAll(/(?<![\w/.-])((?:[\w.-]+\/)*[\w.-]+\.md)\b/g)) found.push({ path: m[1], line: i + 1 });
  });
  return found;
}

/** Every fenced code block, in order, with the text since the previous block or heading. */
export function fencedBlocks(source: string): FencedBlock[] {
  const lines = source.split('\n');
  const blocks: FencedBlock[] = [];
  let textFrom = 0;
  let heading = '';
  const tokens = md.parse(source, {});
  tokens.forEach((token, i) => {
    if (token.map === null) return;
    if (token.type === 'heading_open') {
      textFrom = token.map[1];
      heading = inlineText(tokens[i + 1]).trim();
    }
    if (token.type !== 'fence') return;
    const [from, to] = token.map;
    blocks.push({
      lang: token.info.trim().split(/\s+/)[0] ?? '',
      content: token.content,
      line: from + 1,
      endLine: to,
      before: lines.slice(textFrom, from).join('\n').trim(),
      heading,
    });
    textFrom = to;
  });
  return blocks;
}
