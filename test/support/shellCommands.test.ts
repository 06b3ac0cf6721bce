import { shellCommands } from './shellCommands';

describe('shellCommands', () => {
  it('cuts at line ends, keeps continuations and quotes open over lines, with each line number', () => {
    const script = [
      'H=(-H "Authorization: Bearer $TOKEN")',
      'curl -s -X POST "$B/x" \\',
      '  -d \'{"a": 1,',
      '  "b": "#not a comment"}\'',
      '',
      'echo "a \\" quote # still in it"',
    ].join('\n');
    expect(shellCommands(script, 10)).toEqual([
      { text: 'H=(-H "Authorization: Bearer $TOKEN")', line: 10, comments: [] },
      { text: 'curl -s -X POST "$B/x" \\\n  -d \'{"a": 1,\n  "b": "#not a comment"}\'', line: 11, comments: [] },
      { text: 'echo "a \\" quote # still in it"', line: 15, comments: [] },
    ]);
  });

  it('gives each command the comment lines after it and drops trailing comments', () => {
    const script = ['# before any command', 'export TOKEN=eyJ...   # printed by npm start', 'curl -s x | grep y', '# → 200 {"count": 6}', '#   sample line', 'echo done'].join('\n');
    expect(shellCommands(script)).toEqual([
      { text: 'export TOKEN=eyJ...', line: 2, comments: [] },
      { text: 'curl -s x | grep y', line: 3, comments: ['→ 200 {"count": 6}', '  sample line'] },
      { text: 'echo done', line: 6, comments: [] },
    ]);
  });

  it('a # inside a word is not a comment; an empty script has no command', () => {
    expect(shellCommands('echo a#b $#')).toEqual([{ text: 'echo a#b $#', line: 1, comments: [] }]);
    expect(shellCommands('\n\n# only a comment\n')).toEqual([]);
  });
});
