import { matchRoute, ROUTES, templateSegments } from './routes';

describe('REST routes under /v4/', () => {
  it.each([
    ['POST', 'entity/countries/search', 'document', 'search', 'countries', null],
    ['POST', 'entity/countries/count', 'document', 'count', 'countries', null],
    ['POST', 'entity/countries/_bulk', 'document', 'mCreate', 'countries', null],
    ['POST', 'entity/countries', 'document', 'create', 'countries', null],
    ['GET', 'entity/countries/fr', 'document', 'get', 'countries', 'fr'],
    ['PUT', 'entity/countries/fr', 'document', 'replace', 'countries', 'fr'],
    ['PATCH', 'entity/countries/fr', 'document', 'update', 'countries', 'fr'],
    ['DELETE', 'entity/countries/fr', 'document', 'delete', 'countries', 'fr'],
    ['GET', 'entity/countries/a%3Ab', 'document', 'get', 'countries', 'a:b'],
    ['POST', 'api-keys/_create', 'auth', 'createApiKey', null, null],
    ['POST', 'api-keys/_search', 'auth', 'searchApiKeys', null, null],
    ['DELETE', 'api-keys/k1', 'auth', 'deleteApiKey', null, 'k1'],
    ['POST', '_checkToken', 'auth', 'checkToken', null, null],
    ['GET', '_now', 'server', 'now', null, null],
    ['GET', '_serverInfo', 'server', 'info', null, null],
    ['GET', '_healthCheck', 'server', 'healthCheck', null, null],
    ['GET', '_getConfig', 'server', 'getConfig', null, null],
    ['GET', '_me', 'auth', 'getCurrentUser', null, null],
    ['POST', '_checkRights', 'auth', 'checkRights', null, null],
    ['GET', '_openapi', 'server', 'openapi', null, null],
    ['GET', 'entity/countries/search', 'document', 'get', 'countries', 'search'],
    ['DELETE', 'api-keys/_create', 'auth', 'deleteApiKey', null, '_create'],
    ['GET', 'entity/countries/fr/', 'document', 'get', 'countries', 'fr'],
  ])('%s /v4/%s is %s:%s', (method, path, controller, action, collection, _id) => {
    expect(matchRoute(method, path)).toEqual({ controller, action, collection, _id });
  });

  it.each([
    ['GET', 'entity/countries/search/extra'],
    ['GET', 'api-keys/_create'],
    ['POST', 'entity/countries/fr'],
    ['POST', 'entity'],
    ['POST', 'nothing'],
    ['GET', 'entity//x'],
    ['GET', 'entity/countries/%E0%A4%A'],
    ['POST', '_now'],
    ['GET', '_checkRights'],
    ['GET', '_me/extra'],
    ['GET', '__proto__'],
    ['GET', 'constructor'],
  ])('%s /v4/%s is no route', (method, path) => {
    expect(matchRoute(method, path)).toBeNull();
  });

  it('answers each route of the table for its own template (no route shadows another)', () => {
    const sample = { collection: 'business-units', _id: 'a:b' };
    for (const route of ROUTES) {
      const path = route.path.slice(1).replace(/\{(collection|_id)\}/g, (_, name: 'collection' | '_id') => encodeURIComponent(sample[name]));
      const expected = {
        controller: route.controller,
        action: route.action,
        collection: route.path.includes('{collection}') ? sample.collection : null,
        _id: route.path.includes('{_id}') ? sample._id : null,
      };
      expect([route.method, path, matchRoute(route.method, path)]).toEqual([route.method, path, expected]);
    }
  });

  it('has one route per method and path, and one per controller:action', () => {
    expect(new Set(ROUTES.map((r) => `${r.method} ${r.path}`)).size).toBe(ROUTES.length);
    expect(new Set(ROUTES.map((r) => `${r.controller}:${r.action}`)).size).toBe(ROUTES.length);
  });

  it('refuses a template with a parameter requests cannot carry', () => {
    expect(() => templateSegments('/entity/{type}')).toThrow('bad segment "{type}"');
    expect(() => templateSegments('/entity//x')).toThrow('bad segment ""');
    expect(templateSegments('/entity/{collection}/search')).toEqual([{ literal: 'entity' }, { param: 'collection' }, { literal: 'search' }]);
  });
});
