/**
 * The limits a query string is held to while it is read, so that no string makes a parser recurse
 * without end or read on long after the query is certain to be refused: parentheses nested deeper
 * than MAX_QUERY_DEPTH (query_too_deep), and more than MAX_CLAUSE_COUNT terms, phrases, patterns
 * and ranges (too_many_clauses: each becomes at least one clause on every field it runs on).
 */
import { QueryLimitError } from '../../../port';
import { QueryLimits, tooManyClauses } from '../limits';

export type SyntaxLimits = Pick<QueryLimits, 'maxQueryDepth' | 'maxClauseCount'>;

export class SyntaxGuard {
  private depth = 0;
  private pieces = 0;

  constructor(private readonly limits: SyntaxLimits) {}

  /** Into a group (parentheses). */
  enter(): void {
    const limit = this.limits.maxQueryDepth;
    if (++this.depth > limit) throw new QueryLimitError('query_too_deep', { path: 'the query string', limit }, `the query string nests parentheses deeper than ${limit} levels`);
  }

  leave(): void {
    this.depth--;
  }

  /** One more term, phrase, pattern or range. */
  piece(): void {
    const limit = this.limits.maxClauseCount;
    if (++this.pieces > limit) throw tooManyClauses(limit, ` (the query string holds more than ${limit} terms, phrases, patterns and ranges)`);
  }
}
