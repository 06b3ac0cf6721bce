/**
 * The Lucene query of a parsed `simple_query_string` (simpleParser.ts) against an index's mapping:
 * SimpleQueryParser's buildQueryTree replayed over the scanned steps, with the queries
 * Elasticsearch's SimpleQueryStringQueryParser builds for each token:
 *
 * - a term: newDefaultQuery, a most_fields multi_match (each field's match query, summed);
 * - a phrase: newPhraseQuery, a phrase multi_match (the best field; `quote_field_suffix` applied);
 * - a prefix: newPrefixQuery, each field's prefix query (analyzed with `analyze_wildcard`), summed;
 * - a fuzzy term: newFuzzyQuery, each field's fuzzy query, summed;
 * - a negated piece: NOT x is `-x *:*` (every other document matches, scoring 1).
 *
 * Operators apply left to right: `a | b + c` is `+(a b) +c`. Then
 * Queries.maybeApplyMinimumShouldMatch on the top boolean query (SimpleQueryStringBuilder).
 */
import { LQuery, MATCH_ALL, booleanQuery, matchNone } from '../lucene/query';
import { BuildContext } from '../query/context';
import { applyMinimumShouldMatch } from '../query/minimumShouldMatch';
import { FieldWeights, hasAllFields, resolveFields } from './fields';
import { ClauseCounter, FieldEnv, FuzzyParams, fuzzyField, perField, prefixField, textQuery } from './perField';
import { Branch, SimpleAst, Step } from './simpleParser';

/** The `simple_query_string` parameters that shape the query (SimpleQueryStringBuilder). */
export interface SimpleSettings {
  /** `fields` with their boosts; null when not given (every field, `*`). */
  readonly fields: FieldWeights | null;
  readonly operator: 'or' | 'and';
  readonly lenient: boolean | null;
  readonly analyzeWildcard: boolean;
  readonly quoteFieldSuffix: string | null;
  readonly minimumShouldMatch: string | null;
  readonly env: Omit<FieldEnv, 'build' | 'counter' | 'lenient' | 'operator'>;
  readonly fuzzy: FuzzyParams;
}

/** SimpleQueryParser.State, as buildQueryTree changes it. */
interface State {
  top: LQuery | null;
  current: 'must' | 'should' | null;
  previous: 'must' | 'should' | null;
}

class SimpleBuilder {
  constructor(
    private readonly env: FieldEnv,
    private readonly weights: ReadonlyMap<string, number>,
    private readonly settings: SimpleSettings,
  ) {}

  /** parseSubQuery: the query of a sequence of steps, null when none of its pieces gave one. */
  run(steps: readonly Step[]): LQuery | null {
    const state: State = { top: null, current: null, previous: null };
    for (const step of steps) {
      if (step.kind === 'operator') {
        if (state.current === null && state.top !== null) state.current = step.occur;
      } else if (step.kind === 'reset') {
        state.current = null;
      } else {
        this.addBranch(state, this.branch(step.branch), step.not);
      }
    }
    return state.top;
  }

  /** buildQueryTree: a new operation starts a new boolean query around what came before. */
  private addBranch(state: State, query: LQuery | null, not: number): void {
    if (query === null) return;
    const branch = not % 2 === 1 ? booleanQuery([{ occur: 'must_not', query }, { occur: 'should', query: MATCH_ALL }]) : query;
    if (state.top === null) {
      state.top = branch;
    } else {
      const occur = state.current ?? (this.settings.operator === 'and' ? 'must' : 'should');
      const top = state.previous === occur && state.top.type === 'bool' ? state.top : booleanQuery([{ occur, query: state.top }]);
      state.top = booleanQuery([...top.clauses, { occur, query: branch }], top.minimumShouldMatch);
      state.previous = occur;
    }
    state.current = null;
  }

  private branch(branch: Branch): LQuery | null {
    switch (branch.kind) {
      case 'group':
        return this.run(branch.steps);
      case 'term':
        return textQuery(this.env, this.weights, branch.text, 'most_fields', 0, 1);
      case 'phrase': {
        const suffix = this.settings.quoteFieldSuffix;
        const weights = suffix === null ? this.weights : resolveFields(this.env.build, this.weights, suffix);
        return textQuery(this.env, weights, branch.text, 'phrase', branch.slop, 0);
      }
      case 'prefix':
        return this.eachField((field) => prefixField(this.env, field, branch.text, this.settings.analyzeWildcard));
      case 'fuzzy':
        return this.eachField((field) => fuzzyField(this.env, field, branch.text, branch.edits, this.settings.fuzzy));
    }
  }

  /** newPrefixQuery / newFuzzyQuery: one query per field, boosted, summed (a DisjunctionMaxQuery with tie breaker 1). */
  private eachField(make: (field: string) => LQuery | null): LQuery {
    return perField(this.weights, make, 1) ?? matchNone('no field to query');
  }
}

/** SimpleQueryStringBuilder.doToQuery: the fields (every one when none is given) and leniency, then the query. */
export function simpleQuery(build: BuildContext, ast: SimpleAst, settings: SimpleSettings): LQuery {
  const fields = settings.fields !== null && settings.fields.size > 0 ? settings.fields : new Map([['*', 1]]);
  const weights = resolveFields(build, fields);
  const lenient = settings.lenient ?? hasAllFields(fields.keys());
  const env: FieldEnv = { ...settings.env, build, lenient, operator: settings.operator, counter: new ClauseCounter(build.limits.maxClauseCount) };
  if (ast.kind === 'all') return MATCH_ALL;
  const query = new SimpleBuilder(env, weights, settings).run(ast.steps);
  if (query === null) return matchNone('empty string passed to query parser');
  return query.type === 'bool' ? applyMinimumShouldMatch(query, settings.minimumShouldMatch) : query;
}
