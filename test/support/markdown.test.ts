import { fencedBlocks, headingAnchors, markdownLinks, quotedRepoPaths } from './markdown';

const DOC = [
  '# Entity gateway', // 1
  '',
  'See [below](#browsers-cors), [the schema](schema.graphql) and', // 3
  '[the design](../shared/DESIGN.md), <https://example.com/x>.',
  '',
  '## Browsers (CORS)', // 6
  '',
  'Quoted: `src/core/errors.ts`, `test/e2e`, `lib/elsewhere.js`, `application/json`, and DESIGN.md.', // 8
  '',
  'answers:',
  '',
  '```sh', // 12
  'curl -s x',
  '```',
  '',
  '```json', // 16
  '{"a": 1}',
  '```',
  '',
  '## Browsers (CORS)', // 20
].join('\n');

describe('markdown', () => {
  it('finds links with their lines', () => {
    expect(markdownLinks(DOC)).toEqual([
      { target: '#browsers-cors', line: 3 },
      { target: 'schema.graphql', line: 3 },
      { target: '../shared/DESIGN.md', line: 4 },
      { target: 'https://example.com/x', line: 4 },
    ]);
  });

  it("makes GitHub's anchors: lower case, punctuation dropped, spaces as dashes, repeats numbered", () => {
    expect([...headingAnchors(DOC)]).toEqual(['entity-gateway', 'browsers-cors', 'browsers-cors-1']);
    expect([...headingAnchors('## Several processes: WORKERS and shared `DATA_DIR`\n## Café à la carte')]).toEqual(['several-processes-workers-and-shared-data_dir', 'café-à-la-carte']);
  });

  it('finds the repository paths quoted as code and the Markdown files named (inside the repository or not)', () => {
    expect(quotedRepoPaths(DOC)).toEqual([
      { path: 'src/core/errors.ts', line: 8 },
      { path: 'test/e2e', line: 8 },
      { path: '../shared/DESIGN.md', line: 4 },
      { path: 'DESIGN.md', line: 8 },
    ]);
  });

  it('gives each fenced block its language, lines and the text before it', () => {
    expect(fencedBlocks(DOC)).toEqual([
      { lang: 'sh', content: 'curl -s x\n', line: 12, endLine: 14, before: 'Quoted: `src/core/errors.ts`, `test/e2e`, `lib/elsewhere.js`, `application/json`, and DESIGN.md.\n\nanswers:', heading: 'Browsers (CORS)' },
      { lang: 'json', content: '{"a": 1}\n', line: 16, endLine: 18, before: '', heading: 'Browsers (CORS)' },
    ]);
  });
});
