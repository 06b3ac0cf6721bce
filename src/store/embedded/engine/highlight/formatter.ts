/**
 * Passages as fragments: Elasticsearch's CustomPassageFormatter with its encoders.
 *
 * - Each passage is its text with every match wrapped in the pre and post tag (the first of each
 *   list: the unified highlighter ignores the others); overlapping matches are merged into one, and a
 *   match running past the passage's end is cut there.
 * - A trailing value separator (U+0000) or paragraph separator (U+2029) is dropped; the fragment is
 *   trimmed as Java's String.trim does (every character up to U+0020 at either end) unless
 *   `number_of_fragments` is 0.
 * - Encoder `html` (Lucene's SimpleHTMLEncoder) escapes the text, never the tags: `"` `&` `<` `>`
 *   `'` `/` as `&quot;` `&amp;` `&lt;` `&gt;` `&#x27;` `&#x2F;`; `default` leaves it as it is.
 */
import { Budget, CHECK_EVERY, Steps, UNLIMITED, runToEnd } from '../budget/budget';
import { Passage } from './passages';

export type Encoder = 'default' | 'html';

export interface Fragment {
  readonly text: string;
  readonly score: number;
}

const HTML: Record<string, string> = { '"': '&quot;', '&': '&amp;', '<': '&lt;', '>': '&gt;', "'": '&#x27;', '/': '&#x2F;' };

/** SimpleHTMLEncoder.htmlEncode. */
export function htmlEncode(text: string): string {
  return text.replace(/["&<>'/]/g, (c) => HTML[c]);
}

/** Java's String.trim: strips every code unit up to U+0020 at both ends. */
export function javaTrim(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && text.charCodeAt(start) <= 0x20) start++;
  while (end > start && text.charCodeAt(end - 1) <= 0x20) end--;
  return start === 0 && end === text.length ? text : text.slice(start, end);
}

export interface FormatOptions {
  readonly preTag: string;
  readonly postTag: string;
  readonly encoder: Encoder;
  readonly numberOfFragments: number;
}

/** The fragments of the passages, within the budget (checked every CHECK_EVERY + 1 matches). */
export function* formatPassagesSteps(passages: readonly Passage[], content: string, options: FormatOptions, budget: Budget): Steps<Fragment[]> {
  const encode = options.encoder === 'html' ? htmlEncode : (text: string) => text;
  const out: Fragment[] = [];
  let work = 0;
  for (const passage of passages) {
    const parts: string[] = [];
    let pos = passage.start;
    const matches = passage.matches;
    for (let i = 0; i < matches.length; i++) {
      const start = matches[i].start;
      parts.push(encode(content.slice(pos, start)));
      let end = matches[i].end;
      // look ahead to expand `end` past every overlapping match
      while (i + 1 < matches.length && matches[i + 1].start < end) end = Math.max(matches[++i].end, end);
      end = Math.min(end, passage.end); // a match straddling the passage's end
      parts.push(options.preTag, encode(content.slice(start, end)), options.postTag);
      pos = end;
      if ((++work & CHECK_EVERY) === 0 && budget.due()) yield;
    }
    // a "term" from the analyzer could span a sentence boundary
    parts.push(encode(content.slice(pos, Math.max(pos, passage.end))));
    let text = parts.join('');
    // the separator between values, if the passage ends with it
    const last = text.charCodeAt(text.length - 1);
    if (last === 0x2029 || last === 0) text = text.slice(0, -1);
    out.push({ text: options.numberOfFragments === 0 ? text : javaTrim(text), score: passage.score });
    if ((++work & CHECK_EVERY) === 0 && budget.due()) yield;
  }
  return out;
}

/** formatPassagesSteps run at once. */
export function formatPassages(passages: readonly Passage[], content: string, options: FormatOptions): Fragment[] {
  return runToEnd(formatPassagesSteps(passages, content, options, UNLIMITED));
}
