import type { IncomingMessage } from 'node:http';
import { clientAddressOf, normalizeAddress } from './clientAddress';

const req = (remoteAddress: string | undefined, forwardedFor?: string) =>
  ({ socket: { remoteAddress }, headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor } }) as unknown as IncomingMessage;

describe('normalizeAddress', () => {
  it('keeps IPv4, reads IPv4-mapped IPv6 as IPv4, and counts other IPv6 per /64', () => {
    expect(normalizeAddress('203.0.113.7')).toBe('203.0.113.7');
    expect(normalizeAddress('::ffff:127.0.0.1')).toBe('127.0.0.1');
    expect(normalizeAddress('::FFFF:7f00:1')).toBe('127.0.0.1');
    expect(normalizeAddress('2001:db8:85a3:8d3:1319:8a2e:370:7348')).toBe('2001:db8:85a3:8d3::/64');
    expect(normalizeAddress('2001:db8:85a3:8d3::1')).toBe(normalizeAddress('2001:0DB8:85a3:08d3:ffff::2'));
    expect(normalizeAddress('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(normalizeAddress('::1')).toBe('0:0:0:0::/64');
    expect(normalizeAddress('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(normalizeAddress('[2001:db8::1]')).toBe('2001:db8:0:0::/64');
    expect(normalizeAddress('64:ff9b::192.0.2.33')).toBe('64:ff9b:0:0::/64');
  });

  it('refuses what is not an address', () => {
    for (const text of ['', 'unknown', '1.2.3.4:80', '300.1.1.1', 'evil, 1.2.3.4', '<script>']) expect(normalizeAddress(text)).toBeNull();
  });
});

describe('clientAddressOf', () => {
  it("is the socket's address and never reads X-Forwarded-For by default (TRUST_PROXY=0)", () => {
    const of = clientAddressOf(0);
    expect(of(req('::ffff:10.0.0.9', '1.2.3.4'))).toBe('10.0.0.9');
    expect(of(req(undefined))).toBeNull();
  });

  it('with TRUST_PROXY=n takes the address the nearest of the n proxies saw, never what the client wrote left of it', () => {
    // client -> proxy A (appends the client) -> proxy B (appends A) -> gateway (socket: B)
    const header = '6.6.6.6, 198.51.100.1, 10.0.0.2';
    expect(clientAddressOf(1)(req('10.0.0.3', header))).toBe('10.0.0.2');
    expect(clientAddressOf(2)(req('10.0.0.3', header))).toBe('198.51.100.1');
    // more proxies trusted than entries: the leftmost
    expect(clientAddressOf(5)(req('10.0.0.3', '198.51.100.1'))).toBe('198.51.100.1');
    // no header, or a garbled entry: the socket's
    expect(clientAddressOf(1)(req('10.0.0.3'))).toBe('10.0.0.3');
    expect(clientAddressOf(1)(req('10.0.0.3', 'garbage'))).toBe('10.0.0.3');
  });
});
