/**
 * Lucene's EnglishPossessiveFilter: a term ending with 's (the apostrophe ', ’ or ＇, the s in either
 * case) loses those two chars: "John's" → "John".
 */
export function removePossessive(term: string): string {
  const n = term.length;
  if (n < 2) return term;
  const apostrophe = term.charCodeAt(n - 2);
  const s = term.charCodeAt(n - 1);
  return (apostrophe === 0x27 || apostrophe === 0x2019 || apostrophe === 0xff07) && (s === 0x73 || s === 0x53) ? term.slice(0, n - 2) : term;
}
