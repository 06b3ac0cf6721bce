import { caller } from '../server/testing/serverDeps';
import { checkMappingWriter, mappingAnswer, parseMappingBody } from './mappingContract';

describe('mapping contract helpers', () => {
  it('parseMappingBody: a mapping update, or the 400 naming what is wrong', () => {
    expect(parseMappingBody({ properties: { a: { type: 'long' } } })).toEqual({ ok: true, value: { properties: { a: { type: 'long' } } } });
    const refused = parseMappingBody({ properties: { a: { type: 'long', analyzer: 'standard' } } });
    expect(refused.ok ? null : [refused.error.id, refused.error.status, refused.error.props]).toEqual(['services.storage.invalid_mapping', 400, { reason: 'unknown parameter [analyzer] on mapper [a] of type [long]' }]);
    expect(parseMappingBody(null).ok).toBe(false);
  });

  it('checkMappingWriter: admin only', () => {
    expect(checkMappingWriter(caller({ roles: ['admin'] })).ok).toBe(true);
    expect(checkMappingWriter(caller({ roles: ['writer'] })).ok).toBe(false);
  });

  it('mappingAnswer: _meta always present', () => {
    expect(mappingAnswer({ dynamic: 'false', properties: {} })).toEqual({ dynamic: 'false', _meta: {}, properties: {} });
  });
});
