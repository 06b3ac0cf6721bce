/**
 * The client address a request is counted against (README "Rate limits"): the socket's remote
 * address; with TRUST_PROXY = n, the address the nearest of the n trusted proxies saw, that is the
 * n-th entry of X-Forwarded-For from the right (each proxy appends the address it received the
 * request from; entries further left are whatever the client wrote, and are never read).
 *
 * IPv4-mapped IPv6 addresses are read as IPv4; other IPv6 addresses count per /64 (one host gets a
 * whole /64, and could otherwise rotate through it).
 */
import type { IncomingMessage } from 'node:http';
import { isIP, type Socket } from 'node:net';

export type ClientAddressOf = (req: IncomingMessage) => string | null;

/** The eight 16-bit groups of an IPv6 address (already checked by isIP), without a zone. */
function groups(address: string): number[] {
  let text = address.split('%')[0];
  const lastColon = text.lastIndexOf(':');
  if (text.indexOf('.', lastColon) !== -1) {
    // an IPv4 tail: two groups
    const [a, b, c, d] = text.slice(lastColon + 1).split('.').map(Number);
    text = `${text.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const parse = (part: string): number[] => (part === '' ? [] : part.split(':').map((g) => parseInt(g, 16)));
  const double = text.indexOf('::');
  if (double === -1) return parse(text);
  const left = parse(text.slice(0, double));
  const right = parse(text.slice(double + 2));
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}

/** The address as it is counted, or null when it is not an IP address. */
export function normalizeAddress(candidate: string): string | null {
  let address = candidate.trim();
  if (address.startsWith('[') && address.endsWith(']')) address = address.slice(1, -1);
  const kind = isIP(address);
  if (kind === 4) return address;
  if (kind !== 6) return null;
  const g = groups(address.toLowerCase());
  // ::ffff:a.b.c.d, as Node writes IPv4 clients of a dual-stack socket
  if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff) return `${g[6] >> 8}.${g[6] & 255}.${g[7] >> 8}.${g[7] & 255}`;
  return `${g.slice(0, 4).map((x) => x.toString(16)).join(':')}::/64`;
}

/** TRUST_PROXY: the number of proxies in front of the gateway (0: X-Forwarded-For is ignored). */
export function clientAddressOf(trustProxy: number): ClientAddressOf {
  // (a connection's address does not change: worked out once per connection)
  const bySocket = new WeakMap<Socket, string | null>();
  const ofSocket = (socket: Socket): string | null => {
    let known = bySocket.get(socket);
    if (known === undefined) {
      known = socket.remoteAddress === undefined ? null : normalizeAddress(socket.remoteAddress);
      bySocket.set(socket, known);
    }
    return known;
  };
  if (trustProxy === 0) return (req) => ofSocket(req.socket);
  return (req) => {
    const header = req.headers['x-forwarded-for'];
    if (typeof header !== 'string' || header.trim() === '') return ofSocket(req.socket);
    const hops = header.split(',');
    // hops plus the socket's address: the entry trustProxy places left of the socket's
    const index = hops.length - trustProxy;
    return normalizeAddress(hops[Math.max(0, index)]) ?? ofSocket(req.socket);
  };
}
