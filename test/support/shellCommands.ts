/**
 * A README shell block cut into its commands as bash reads them (a command continues over `\`
 * line ends and over quotes left open, as in `-d '{` ... `}'`), each with the comment lines that
 * follow it. Not a shell parser: enough for the README's examples (quotes, escapes, comments),
 * which no package cuts this way while keeping each command's text and comments.
 */
export interface ShellCommand {
  /** The command as written (continuations kept), without a trailing comment. */
  text: string;
  /** 1-based line where it starts, counting from `firstLine`. */
  line: number;
  /** The comment lines right after it, without their `#` and the space after it. */
  comments: string[];
}

export function shellCommands(script: string, firstLine = 1): ShellCommand[] {
  const commands: ShellCommand[] = [];
  let buf = '';
  let quote: "'" | '"' | null = null;
  let line = firstLine;
  let startLine = line;
  const push = () => {
    if (buf.trim() !== '') commands.push({ text: buf.trim(), line: startLine, comments: [] });
    buf = '';
  };
  for (let i = 0; i < script.length; i++) {
    const c = script[i];
    if (c === '\n') line++;
    if (quote === "'") {
      buf += c;
      if (c === "'") quote = null;
      continue;
    }
    if (c === '\\' && i + 1 < script.length) {
      if (script[i + 1] === '\n') line++;
      buf += c + script[++i];
      continue;
    }
    if (quote === '"') {
      buf += c;
      if (c === '"') quote = null;
      continue;
    }
    if (c === '#' && /^$|\s$/.test(buf)) {
      const end = script.indexOf('\n', i);
      const comment = script.slice(i + 1, end < 0 ? script.length : end).replace(/^ /, '');
      if (buf.trim() === '' && commands.length > 0) commands[commands.length - 1].comments.push(comment);
      i = (end < 0 ? script.length : end) - 1;
      continue;
    }
    if (c === '\n') {
      push();
      startLine = line;
      continue;
    }
    if (buf.trim() === '' && c.trim() !== '') startLine = line;
    if (c === "'" || c === '"') quote = c;
    buf += c;
  }
  push();
  return commands;
}
