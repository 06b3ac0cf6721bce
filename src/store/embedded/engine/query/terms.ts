/**
 * `terms`: documents whose field holds any of the values, `{"terms": {"code": ["FR", "DE"],
 * "boost": 1}}`. Constant-score (Lucene's TermInSetQuery), even for a single value. The terms
 * lookup form (an object instead of the array) is not supported. At most `limits.maxTermsCount`
 * values (Elasticsearch's index.max_terms_count, 65,536).
 */
import { QueryLimitError } from '../../../port';
import { describe, isPlainObject } from '../json';
import { withBoost } from '../lucene/query';
import { ClauseParser } from './context';
import { anyOfQuery } from './fieldQueries';
import { at, invalid, objectBody, readBoost, readName, readScalar } from './params';

export const parseTerms: ClauseParser = (body, path, ctx) => {
  const obj = objectBody('terms', body, path);
  let field: string | null = null;
  let values: (string | number | boolean)[] = [];
  let boost = 1;
  for (const key of Object.keys(obj)) {
    const where = at(path, key);
    if (key === 'boost') {
      boost = readBoost('terms', obj.boost, where);
    } else if (key === '_name') {
      readName('terms', obj, path);
    } else {
      if (field !== null) throw invalid(`[terms] query does not support multiple fields, found ${JSON.stringify(field)} and ${JSON.stringify(key)} at ${path}`);
      const raw = obj[key];
      if (isPlainObject(raw)) throw invalid(`[terms] lookup (an object for ${JSON.stringify(key)}) is not supported at ${where}`);
      if (!Array.isArray(raw)) throw invalid(`[terms] values for ${JSON.stringify(key)} at ${where} must be an array, got ${describe(raw)}`);
      field = key;
      const limit = ctx.limits.maxTermsCount;
      // TermsQueryBuilder.doToQuery: index.max_terms_count
      if (raw.length > limit) throw new QueryLimitError('too_many_terms', { count: raw.length, limit }, `The number of terms [${raw.length}] used in the Terms Query request has exceeded the allowed maximum of [${limit}]`);
      values = raw.map((v, i) => (typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v)) ? v : readScalar('terms', 'value', v, `${where}[${i}]`)));
    }
  }
  if (field === null) throw invalid(`[terms] at ${path} needs a field and an array of values`);
  const name = field;
  const where = at(path, name);
  return { toLucene: (ctx) => withBoost(anyOfQuery(ctx, name, values, where), boost) };
};
