/**
 * A Lucene query as its toString(field = null) prints it, which explanations quote: TermQuery
 * `name:france`, PhraseQuery `name:"south africa"~1`, BooleanQuery `+a #b -c d~2` (nested ones in
 * parentheses), BoostQuery `(q)^2.0`, ConstantScoreQuery `ConstantScore(q)`, DisjunctionMaxQuery
 * `(a | b)~0.3`, MatchAllDocsQuery `*:*`; the constant-score leaves print their key.
 */
import { floatToJson } from '../fieldValues';
import { LQuery } from '../lucene/query';

/** Java's Float.toString for the boosts and tie-breakers printed (2 prints 2.0). */
export function javaFloat(value: number): string {
  const text = String(floatToJson(Math.fround(value)));
  return /[.eE]/.test(text) ? text : `${text}.0`;
}

export function luceneString(query: LQuery): string {
  switch (query.type) {
    case 'matchAll':
      return '*:*';
    case 'matchNone':
      return `MatchNoDocsQuery("${query.reason}")`;
    case 'term':
      return `${query.field}:${query.term}`;
    case 'phrase':
      return `${query.field}:"${query.terms.join(' ')}"${query.slop === 0 ? '' : `~${query.slop}`}`;
    case 'multiPhrase':
      return `${query.field}:"${query.termArrays.map((t) => (t.length === 1 ? t[0] : `(${t.join(' ')})`)).join(' ')}"${query.slop === 0 ? '' : `~${query.slop}`}`;
    case 'boost':
      return `(${luceneString(query.query)})^${javaFloat(query.boost)}`;
    case 'constantScore':
      return `ConstantScore(${luceneString(query.query)})`;
    case 'leaf':
      return query.key;
    case 'intervals':
      return `${query.field}:${String(query.source)}`;
    case 'nested':
      // ToParentBlockJoinQuery.toString
      return `ToParentBlockJoinQuery (${luceneString(query.query)})`;
    case 'combinedField':
      return `CombinedFieldQuery((${query.fields.map((f) => (f.weight === 1 ? f.field : `${f.field}^${javaFloat(f.weight)}`)).join(' ')})(${query.terms.join(' ')}))`;
    case 'disMax':
      return `(${query.disjuncts.map(luceneString).join(' | ')})${query.tieBreaker === 0 ? '' : `~${javaFloat(query.tieBreaker)}`}`;
    case 'functionScore':
      return `function score (${luceneString(query.query)}, functions: [${query.functions.map((fn) => `{${fn.filter === null ? '' : `filter(${luceneString(fn.filter)}), `}function [${fn.text}]}`).join('')}])`;
    case 'bool': {
      const prefix = { must: '+', filter: '#', must_not: '-', should: '' } as const;
      const text = query.clauses.map((c) => prefix[c.occur] + (c.query.type === 'bool' ? `(${luceneString(c.query)})` : luceneString(c.query))).join(' ');
      return query.minimumShouldMatch > 0 ? `${text}~${query.minimumShouldMatch}` : text;
    }
  }
}
