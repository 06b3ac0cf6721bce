import { ASSET_HEADERS, contentSecurityPolicy, pageHeaders } from './securityHeaders';

const directives = (policy: string): Map<string, string> => new Map(policy.split('; ').map((d) => [d.split(' ')[0], d.slice(d.indexOf(' ') + 1)]));

describe('the console pages\' security headers', () => {
  it('allow only the gateway itself: no inline script, no other origin, no frame around the page', () => {
    const policy = directives(contentSecurityPolicy('localhost:7512'));
    expect(policy.get('default-src')).toBe("'self'");
    expect(policy.get('script-src')).toBe("'self'");
    expect(policy.get('style-src')).toBe("'self'");
    expect(policy.get('connect-src')).toBe("'self' ws://localhost:7512 wss://localhost:7512");
    expect(policy.get('frame-ancestors')).toBe("'none'");
    expect(policy.get('object-src')).toBe("'none'");
    expect(policy.get('base-uri')).toBe("'none'");
    // nothing anywhere allows inline code, eval or another host
    expect(contentSecurityPolicy('localhost:7512')).not.toMatch(/unsafe|\*|https?:/);
  });

  it.each(['127.0.0.1:41234', 'gateway.example.com', '[::1]:7512', 'api-1.internal:80'])('names the sockets of host %s', (host) => {
    expect(directives(contentSecurityPolicy(host)).get('connect-src')).toBe(`'self' ws://${host} wss://${host}`);
  });

  it.each([undefined, '', 'evil.example; script-src *', 'a b', 'host:7512/path', "x'y", 'h\r\nSet-Cookie: a=b'])(
    'writes no Host header that is not a host into the policy (%j): self only',
    (host) => {
      expect(directives(contentSecurityPolicy(host)).get('connect-src')).toBe("'self'");
    },
  );

  it('pages: HTML, the policy, nosniff, no framing, no referrer, revalidated', () => {
    expect(pageHeaders('localhost')).toEqual({
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': contentSecurityPolicy('localhost'),
      'X-Content-Type-Options': 'nosniff',
      'X-Frame-Options': 'DENY',
      'Referrer-Policy': 'no-referrer',
      'Cache-Control': 'no-cache',
    });
  });

  it('files: nosniff, cached for a year (their URL changes with their content)', () => {
    expect(ASSET_HEADERS).toEqual({ 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'public, max-age=31536000, immutable' });
  });
});
