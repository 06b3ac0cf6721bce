/**
 * Elasticsearch's Regex.simpleMatch: `*` matches any sequence of characters (dots included), every
 * other character itself. Used for field name patterns (multi_match fields, exists) and for
 * _source includes and excludes.
 */
export function isSimpleMatchPattern(pattern: string): boolean {
  return pattern.includes('*');
}

export function simpleMatch(pattern: string, text: string): boolean {
  const parts = pattern.split('*');
  if (parts.length === 1) return pattern === text;
  const first = parts[0];
  const last = parts[parts.length - 1];
  if (text.length < first.length + last.length || !text.startsWith(first) || !text.endsWith(last)) return false;
  let position = first.length;
  const end = text.length - last.length;
  for (let i = 1; i < parts.length - 1; i++) {
    const part = parts[i];
    if (part === '') continue;
    const found = text.indexOf(part, position);
    if (found === -1 || found + part.length > end) return false;
    position = found + part.length;
  }
  return true;
}
