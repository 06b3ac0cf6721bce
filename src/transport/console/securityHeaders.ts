/**
 * The headers of the console's pages and files. Written here rather than with helmet (not a
 * dependency): five fixed headers and one policy line.
 *
 * The policy allows only this origin: scripts and styles from files it serves (no inline script,
 * no eval), fonts and images also as data: URLs (GraphiQL's stylesheet embeds its fonts),
 * connections to itself over HTTP and WebSocket (graphql-ws), no frame around the page.
 */

/** A Host header fit to be written into the policy: a name or an IPv4/IPv6 address, and a port. */
const HOST = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

export function contentSecurityPolicy(host: string | undefined): string {
  // 'self' covers ws: and wss: of the page's own host in CSP Level 3; older browsers need them named
  const sockets = host !== undefined && HOST.test(host) ? ` ws://${host} wss://${host}` : '';
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    `connect-src 'self'${sockets}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** For an HTML page of the console. */
export function pageHeaders(host: string | undefined): Record<string, string> {
  return {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Security-Policy': contentSecurityPolicy(host),
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'no-referrer',
    // the page names its files by content hash: always ask for the page again, keep the files
    'Cache-Control': 'no-cache',
  };
}

/** For a file under /console/assets/<hash>/ (the content of a URL never changes). */
export const ASSET_HEADERS: Record<string, string> = {
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'public, max-age=31536000, immutable',
};
