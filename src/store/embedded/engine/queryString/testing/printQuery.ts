/**
 * Test support: a Lucene query tree written roughly as Lucene's Query.toString writes it
 * (`+f:a -f:b`, `(f:a | g:a)~0.5`, `f:"a b"~2`, `(f:a)^2`), leaves by their key, so that tests
 * state the query a query string becomes in one readable line.
 */
import { LQuery } from '../../lucene/query';

const OCCUR = { must: '+', should: '', must_not: '-', filter: '#' } as const;

export function printQuery(query: LQuery): string {
  switch (query.type) {
    case 'matchAll':
      return '*:*';
    case 'matchNone':
      return 'MatchNoDocsQuery';
    case 'term':
      return `${query.field}:${query.term}`;
    case 'phrase':
      return `${query.field}:"${query.terms.join(' ')}"${query.slop > 0 ? `~${query.slop}` : ''}`;
    case 'boost':
      return `(${printQuery(query.query)})^${query.boost}`;
    case 'constantScore':
      return `ConstantScore(${printQuery(query.query)})`;
    case 'bool': {
      const clauses = query.clauses.map((c) => {
        const inner = printQuery(c.query);
        return OCCUR[c.occur] + (c.query.type === 'bool' ? `(${inner})` : inner);
      });
      return clauses.join(' ') + (query.minimumShouldMatch > 0 ? `~${query.minimumShouldMatch}` : '');
    }
    case 'disMax':
      return `(${query.disjuncts.map(printQuery).join(' | ')})~${query.tieBreaker}`;
    case 'leaf':
      return query.key;
    default:
      return query.type;
  }
}
