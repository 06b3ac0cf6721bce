/**
 * Entity types and their path segments: `countries` <-> `country`, `business-units` <-> `businessUnit`.
 * Types are open: any well-formed hyphenated plural names one.
 */
import pluralize from 'pluralize';
import { fail, ok, type Result } from '../errors';

export const COLLECTION_PATTERN = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;
const MAX_COLLECTION_LENGTH = 100;

export interface EntityType {
  /** Hyphenated plural, as in paths: `business-units`. */
  collection: string;
  /** Singular camelCase, as in `entityType`: `businessUnit`. */
  entityType: string;
}

function singularOf(collection: string): string[] {
  const words = collection.split('-');
  words[words.length - 1] = pluralize.singular(words[words.length - 1]);
  return words;
}

const camel = (words: string[]): string => words.map((w, i) => (i === 0 ? w : w.charAt(0).toUpperCase() + w.slice(1))).join('');

/** Parsed names, good and bad: pluralize's rule tables are slow, and every request names a type. */
const MAX_CACHED = 10_000;

function memoized(parse: (value: unknown) => Result<EntityType>): (value: unknown) => Result<EntityType> {
  const parsed = new Map<string, Result<EntityType>>();
  return (value) => {
    if (typeof value !== 'string') return parse(value);
    const cached = parsed.get(value);
    if (cached !== undefined) return cached;
    const result = parse(value);
    if (parsed.size >= MAX_CACHED) parsed.clear();
    parsed.set(value, result);
    return result;
  };
}

/** From a path segment. A singular segment is refused with the plural to use instead. */
export const parseCollection = memoized(parseSegment);

function parseSegment(segment: unknown): Result<EntityType> {
  if (segment === undefined || segment === null || segment === '') return fail('api.assert.missing_argument', { name: 'collection' });
  if (typeof segment !== 'string') return fail('api.assert.invalid_type', { name: 'collection', expected: 'a string' });
  if (segment.length > MAX_COLLECTION_LENGTH || !COLLECTION_PATTERN.test(segment)) {
    return fail('api.assert.invalid_argument', {
      name: 'collection',
      reason: `"${segment.slice(0, MAX_COLLECTION_LENGTH)}" is not a hyphenated lowercase plural such as "countries" or "business-units"`,
    });
  }
  const singular = singularOf(segment);
  const words = segment.split('-');
  const plural = pluralize.plural(singular[singular.length - 1]);
  if (plural !== words[words.length - 1]) {
    words[words.length - 1] = plural;
    return fail('api.assert.invalid_argument', { name: 'collection', reason: `"${segment}" is singular: use "${words.join('-')}"` });
  }
  return ok({ collection: segment, entityType: camel(singular) });
}

/** From a type name as a client may write it: the plural segment, or the singular in camelCase or hyphenated. */
export const parseTypeName = memoized(parseName);

function parseName(name: unknown): Result<EntityType> {
  if (typeof name === 'string' && /^[a-z][a-zA-Z0-9]*$/.test(name) && /[A-Z]/.test(name)) {
    name = name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
  }
  if (typeof name === 'string' && COLLECTION_PATTERN.test(name)) {
    const words = name.split('-');
    const last = words[words.length - 1];
    if (pluralize.plural(last) !== last) {
      words[words.length - 1] = pluralize.plural(last);
      return parseCollection(words.join('-'));
    }
  }
  return parseCollection(name);
}
