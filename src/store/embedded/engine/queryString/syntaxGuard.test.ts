import { SyntaxGuard } from './syntaxGuard';

describe('query string syntax guard', () => {
  it('counts nesting and pieces against the limits', () => {
    const guard = new SyntaxGuard({ maxQueryDepth: 2, maxClauseCount: 3 });
    guard.enter();
    guard.enter();
    expect(() => guard.enter()).toThrow(expect.objectContaining({ limit: 'query_too_deep' }));
    guard.leave();
    guard.leave();
    guard.piece();
    guard.piece();
    guard.piece();
    expect(() => guard.piece()).toThrow(expect.objectContaining({ limit: 'too_many_clauses', message: expect.stringContaining('more than 3 terms') }));
  });
});
