/**
 * Lucene's LowerCaseFilter on one term: each code point lower-cased alone, as Java's
 * Character.toLowerCase(int) does (a one-to-one mapping). JavaScript's toLowerCase is used per code
 * point and a mapping to several code points is refused (the code point stays), except U+0130
 * (capital I with dot above), which Java maps to "i". Final sigma is not special-cased (σ, like Java).
 */

const ASCII = /^[\x00-\x7f]*$/;

export function lowerCase(term: string): string {
  if (ASCII.test(term)) return term.toLowerCase();
  let out = '';
  for (const ch of term) {
    if (ch === '\u0130') {
      out += 'i';
      continue;
    }
    const lower = ch.toLowerCase();
    out += lower.length === ch.length || [...lower].length === 1 ? lower : ch;
  }
  return out;
}
