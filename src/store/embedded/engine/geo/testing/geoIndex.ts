/**
 * Test support: a SearchIndex whose `location` field a declared mapping makes a geo_point, with a few
 * cities and an entity without a point.
 */
import { SearchIndex } from '../../searchIndex';

export const CITIES: readonly [string, Record<string, unknown>][] = [
  ['paris', { name: 'Paris', tenant: 'a', location: { lat: 48.8566, lon: 2.3522 } }],
  ['london', { name: 'London', tenant: 'a', location: '51.5074,-0.1278' }],
  ['berlin', { name: 'Berlin', tenant: 'b', location: [13.405, 52.52] }],
  ['lyon', { name: 'Lyon', tenant: 'b', location: 'POINT (4.8357 45.764)' }],
  ['nowhere', { name: 'Nowhere', tenant: 'a' }],
];

export function geoIndex(): SearchIndex {
  const index = new SearchIndex();
  index.declareMapping({ dynamic: 'true', properties: { location: { type: 'geo_point' } } });
  for (const [id, doc] of CITIES) index.put(id, doc);
  return index;
}
