import type { RateState } from '../core/rateLimit/rateLimits';
import { rateLimitHeaders, setRateLimitHeaders } from './rateLimitHeaders';

const state: RateState = { policy: 'requests', limit: 600, windowSeconds: 60, remaining: 12, resetSeconds: 17, refused: false, retryAfterSeconds: 0 };

describe('rateLimitHeaders (draft-ietf-httpapi-ratelimit-headers-10)', () => {
  it('names the policy with its quota and window, and what is left of it', () => {
    expect(rateLimitHeaders(state)).toEqual(['RateLimit-Policy', '"requests";q=600;w=60', 'RateLimit', '"requests";r=12;t=17']);
  });

  it('adds Retry-After to a refusal', () => {
    expect(rateLimitHeaders({ ...state, policy: 'auth-failures', limit: 20, remaining: 0, resetSeconds: 42, refused: true, retryAfterSeconds: 42 })).toEqual([
      'RateLimit-Policy',
      '"auth-failures";q=20;w=60',
      'RateLimit',
      '"auth-failures";r=0;t=42',
      'Retry-After',
      '42',
    ]);
  });

  it('sets them on a response written later', () => {
    const set: Record<string, string> = {};
    setRateLimitHeaders({ setHeader: (name, value) => (set[name] = value) }, state);
    expect(set).toEqual({ 'RateLimit-Policy': '"requests";q=600;w=60', RateLimit: '"requests";r=12;t=17' });
  });
});
