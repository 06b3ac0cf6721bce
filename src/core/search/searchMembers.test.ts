import { parseSearchRequest } from './searchRequest';
import { refuseEntityOnlyMembers } from './searchMembers';

const parse = (body: Record<string, unknown>) => parseSearchRequest(body, {});
const errorOf = (body: Record<string, unknown>) => {
  const r = parse(body);
  return r.ok ? undefined : { id: r.error.id, message: r.error.message };
};

describe('the rest of the search body', () => {
  it('takes every member with its JSON type', () => {
    const r = parse({
      track_total_hits: 100,
      terminate_after: 5,
      min_score: 0.5,
      post_filter: { term: { code: 'FR' } },
      explain: true,
      collapse: { field: 'region.keyword' },
      fields: ['name'],
      docvalue_fields: 'code.keyword',
      stored_fields: '_none_',
    });
    expect(r.ok && r.value).toMatchObject({ track_total_hits: 100, terminate_after: 5, min_score: 0.5, explain: true, fields: ['name'], docvalue_fields: ['code.keyword'], stored_fields: '_none_' });
    const off = parse({ track_total_hits: -1 });
    expect(off.ok && off.value.track_total_hits).toBe(false);
  });

  it('refuses bad types and negative numbers with catalogue ids', () => {
    expect(errorOf({ track_total_hits: 'yes' })?.id).toBe('api.assert.invalid_type');
    expect(errorOf({ track_total_hits: -2 })).toEqual({ id: 'api.assert.invalid_argument', message: expect.stringContaining('must be positive or equals to -1, got -2') });
    expect(errorOf({ terminate_after: -1 })?.id).toBe('api.assert.invalid_argument');
    expect(errorOf({ terminate_after: 1.5 })?.id).toBe('api.assert.invalid_type');
    expect(errorOf({ min_score: '1' })?.id).toBe('api.assert.invalid_type');
    expect(errorOf({ explain: 'true' })?.id).toBe('api.assert.invalid_type');
    expect(errorOf({ collapse: 'region' })?.id).toBe('api.assert.invalid_type');
    expect(errorOf({ fields: 3 })?.id).toBe('api.assert.invalid_type');
    expect(errorOf({ stored_fields: [1] })?.id).toBe('api.assert.invalid_type');
    expect(errorOf({ post_filter: [] })?.id).toBe('services.storage.invalid_search_query');
    expect(errorOf({ rescore: {} })?.message).toContain('unsupported body key "rescore"');
    expect(errorOf({ post_filter: { script: { script: 'x' } } })?.message).toContain('scripts are not allowed');
  });

  it('refuses the entity-only members in an API key search', () => {
    const r = parse({ explain: true });
    const refused = refuseEntityOnlyMembers(r.ok ? r.value : { from: 0, size: 10 });
    expect(refused.ok ? undefined : refused.error.message).toContain('unsupported body key "explain" in an API key search');
    const plain = parse({ track_total_hits: false });
    expect(refuseEntityOnlyMembers(plain.ok ? plain.value : { from: 0, size: 10 }).ok).toBe(true);
  });
});
