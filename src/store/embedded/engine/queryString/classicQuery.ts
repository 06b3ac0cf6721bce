/**
 * The Lucene query of a parsed `query_string` (classicParser.ts) against an index's mapping: what
 * Lucene's QueryParser assembles (QueryParserBase.addClause, addMultiTermClauses, handleBoost,
 * getBooleanQuery) from the queries Elasticsearch's QueryStringQueryParser builds for each piece
 * (getFieldQuery, getRangeQuery, getPrefixQuery, getWildcardQuery, getRegexpQuery,
 * getFuzzyQuery), then QueryStringQueryBuilder.doToQuery's last steps (a purely negative query
 * also matches everything else, minimum_should_match on the top boolean query).
 *
 * Fields: a piece without `field:` runs on the default field (`default_field`, else `*`) or on the
 * `fields` list; `*` is every field (QueryParserHelper), and makes the query lenient unless
 * `lenient` says otherwise. Several fields give a DisjunctionMaxQuery (tie_breaker, else the
 * type's: 0, or 1 for most_fields).
 */
import { QueryLimitError } from '../../../port';
import { isSimpleMatchPattern } from '../glob';
import { BooleanQuery, Clause, LQuery, MATCH_ALL, Occur, booleanQuery, boostQuery, matchNone } from '../lucene/query';
import { BuildContext } from '../query/context';
import { existsQuery } from '../query/exists';
import { fieldType } from '../query/fieldQueries';
import { applyMinimumShouldMatch } from '../query/minimumShouldMatch';
import { ClauseNode, Conjunction, Modifier, QueryNode, TermNode } from './classicParser';
import { FieldWeights, checkFieldCount, hasAllFields, isMatchAll, resolveField, resolveFields } from './fields';
import { javaInt } from './javaNumbers';
import { ClauseCounter, FieldEnv, FuzzyParams, TYPE_TIE_BREAKER, TextType, boosted, fuzzyField, perField, prefixField, rangeField, regexpField, textQuery, wildcardField } from './perField';

/** The `query_string` parameters that shape the query (QueryStringQueryBuilder). */
export interface ClassicSettings {
  readonly defaultField: string | null;
  /** `fields` with their boosts; null when not given. */
  readonly fields: FieldWeights | null;
  readonly operator: 'or' | 'and';
  readonly type: TextType;
  readonly tieBreaker: number | null;
  readonly phraseSlop: number;
  readonly quoteFieldSuffix: string | null;
  readonly allowLeadingWildcard: boolean;
  readonly analyzeWildcard: boolean;
  readonly lenient: boolean | null;
  readonly minimumShouldMatch: string | null;
  readonly env: Omit<FieldEnv, 'build' | 'counter' | 'lenient' | 'operator'>;
  readonly fuzzy: FuzzyParams;
}

const EXISTS_FIELD = '_exists_';

class ClassicBuilder {
  private readonly env: FieldEnv;
  private readonly tieBreaker: number;

  constructor(
    private readonly build: BuildContext,
    private readonly settings: ClassicSettings,
    /** The default field (QueryParserBase.field): null when `fields` is given. */
    private readonly field: string | null,
    /** The fields a piece without a field runs on when `field` is null or `*`. */
    private readonly weights: ReadonlyMap<string, number>,
    lenient: boolean,
  ) {
    this.env = { ...settings.env, build, lenient, operator: settings.operator, counter: new ClauseCounter(build.limits.maxClauseCount) };
    this.tieBreaker = settings.tieBreaker ?? TYPE_TIE_BREAKER[settings.type];
  }

  /** QueryParser.Query: its clauses, or the first query alone. */
  query(node: QueryNode, field: string | null): LQuery | null {
    const clauses: Clause[] = [];
    let first: LQuery | null = null;
    node.items.forEach((item, i) => {
      if (item.kind === 'multi') {
        const query = this.fieldQuery(field, item.text);
        this.addMultiTermClauses(clauses, query);
        if (i === 0) first = query;
        return;
      }
      const query = this.clause(item.clause, field);
      this.addClause(clauses, item.conj, item.mods, query);
      if (i === 0 && item.mods === 'none') first = query;
    });
    return clauses.length === 1 && first !== null ? first : this.booleanQuery(clauses);
  }

  /** QueryParserBase.addClause: AND makes the clause before required, OR (with AND the default) optional. */
  private addClause(clauses: Clause[], conj: Conjunction, mods: Modifier, query: LQuery | null): void {
    const last = clauses.length - 1;
    if (last >= 0 && conj === 'and' && clauses[last].occur !== 'must_not') clauses[last] = { occur: 'must', query: clauses[last].query };
    if (last >= 0 && this.settings.operator === 'and' && conj === 'or' && clauses[last].occur !== 'must_not') clauses[last] = { occur: 'should', query: clauses[last].query };
    if (query === null) return;
    const prohibited = mods === 'not';
    const required = this.settings.operator === 'or' ? mods === 'req' || (conj === 'and' && !prohibited) : !prohibited && conj !== 'or';
    clauses.push({ occur: prohibited ? 'must_not' : required ? 'must' : 'should', query });
  }

  /** QueryParserBase.addMultiTermClauses: the terms of `new york` flattened, else one clause. */
  private addMultiTermClauses(clauses: Clause[], query: LQuery | null): void {
    if (query === null) return;
    if (query.type === 'bool' && query.clauses.every((c) => c.query.type === 'term')) {
      clauses.push(...query.clauses);
      return;
    }
    const occur: Occur = this.settings.operator === 'or' ? 'should' : 'must';
    if (query.type === 'bool') clauses.push(...query.clauses.map((c) => ({ occur, query: c.query })));
    else clauses.push({ occur, query });
  }

  /** QueryStringQueryParser.getBooleanQuery: none is null; all prohibited also matches everything else. */
  private booleanQuery(clauses: readonly Clause[]): LQuery | null {
    return clauses.length === 0 ? null : fixNegativeQuery(booleanQuery(clauses));
  }

  private clause(node: ClauseNode, inherited: string | null): LQuery | null {
    const field = node.field ?? inherited;
    if (node.body.kind === 'group') return boosted(this.query(node.body.query, field), node.body.boost);
    return boosted(this.term(node.body, field), node.body.boost);
  }

  private term(node: TermNode, field: string | null): LQuery | null {
    switch (node.kind) {
      case 'term':
        return this.fieldQuery(field, node.text);
      case 'quoted':
        return this.phraseQuery(field, node.text, node.slop ?? this.settings.phraseSlop);
      case 'prefix':
        return this.prefixQuery(field, node.text);
      case 'wildcard':
        return this.wildcardQuery(field, node.pattern);
      case 'regexp':
        return this.regexpQuery(field, node.pattern);
      case 'fuzzy':
        return this.fuzzyQuery(field, node.text, javaInt(node.edits));
      case 'range':
        return this.rangeQuery(field, node.lower, node.upper, node.includeLower, node.includeUpper);
    }
  }

  /** QueryStringQueryParser.extractMultiFields. */
  private fieldsOf(field: string | null, quoted: boolean): ReadonlyMap<string, number> {
    const suffix = quoted ? this.settings.quoteFieldSuffix : null;
    let fields: ReadonlyMap<string, number>;
    if (field !== null) fields = isMatchAll(field) && this.field === field ? this.weights : resolveField(this.build, field, 1, !isSimpleMatchPattern(field), suffix);
    else if (suffix !== null) fields = resolveFields(this.build, this.weights, suffix);
    else fields = this.weights;
    checkFieldCount(this.build, fields.size, field);
    return fields;
  }

  private exists(field: string): LQuery {
    return this.env.counter.add(existsQuery(this.build, field));
  }

  /** getFieldQuery(field, text, false): `_exists_:`, the `>` `>=` `<` `<=` ranges, else the text on the fields. */
  private fieldQuery(field: string | null, text: string): LQuery | null {
    if (field === EXISTS_FIELD) return this.exists(text);
    if (field !== null && text.length > 1) {
      const inclusive = text.length > 2 && text[1] === '=';
      const bound = text.slice(inclusive ? 2 : 1);
      if (text[0] === '>') return this.rangeQuery(field, bound, null, inclusive, true);
      if (text[0] === '<') return this.rangeQuery(field, null, bound, true, inclusive);
      // a date field with a time zone: its day (or whatever the value names) in that zone
      if (fieldType(this.build, field) === 'date' && this.settings.env.timeZone !== null) return this.rangeQuery(field, text, text, true, true);
    }
    const fields = this.fieldsOf(field, false);
    if (fields.size === 0) return matchNone(`unmapped field ${field}`);
    return textQuery(this.env, fields, text, this.settings.type, this.settings.phraseSlop, this.tieBreaker);
  }

  /** getFieldQuery(field, text, slop): a phrase on the fields (with quote_field_suffix). */
  private phraseQuery(field: string | null, text: string, slop: number): LQuery | null {
    if (field === EXISTS_FIELD) return this.exists(text);
    const fields = this.fieldsOf(field, true);
    if (fields.size === 0) return matchNone(`unmapped field ${field}`);
    return textQuery(this.env, fields, text, 'phrase', slop, this.tieBreaker);
  }

  private rangeQuery(field: string | null, lower: string | null, upper: string | null, includeLower: boolean, includeUpper: boolean): LQuery | null {
    const open = (bound: string | null) => (bound === '*' ? null : bound);
    const fields = this.fieldsOf(field, false);
    if (fields.size === 0) return matchNone(`unmapped field ${field}`);
    return perField(fields, (f) => rangeField(this.env, f, open(lower), open(upper), includeLower, includeUpper), this.tieBreaker);
  }

  private prefixQuery(field: string | null, text: string): LQuery | null {
    const fields = this.fieldsOf(field, false);
    if (fields.size === 0) return matchNone(`unmapped field ${field}`);
    return perField(fields, (f) => prefixField(this.env, f, text, this.settings.analyzeWildcard), this.tieBreaker);
  }

  /** getWildcardQuery: `*` alone is every document on `*`, else an exists query; otherwise a pattern per field. */
  private wildcardQuery(field: string | null, pattern: string): LQuery | null {
    const actual = field ?? this.field;
    if (pattern === '*' && actual !== null) return isMatchAll(actual) ? this.env.counter.add(MATCH_ALL) : this.exists(actual);
    const fields = this.fieldsOf(field, false);
    if (fields.size === 0) return matchNone(`unmapped field ${field}`);
    return perField(fields, (f) => wildcardField(this.env, f, pattern, this.settings.allowLeadingWildcard), this.tieBreaker);
  }

  private regexpQuery(field: string | null, pattern: string): LQuery | null {
    const limit = this.build.limits.maxRegexLength;
    if (pattern.length > limit) {
      throw new QueryLimitError('regex_too_long', { length: pattern.length, clause: '[query_string]', limit }, `The length of regex [${pattern.length}] used in the [query_string] has exceeded the allowed maximum of [${limit}]`);
    }
    const fields = this.fieldsOf(field, false);
    if (fields.size === 0) return matchNone(`unmapped field ${field}`);
    return perField(fields, (f) => regexpField(this.env, f, pattern), this.tieBreaker);
  }

  private fuzzyQuery(field: string | null, text: string, edits: number): LQuery | null {
    const fields = this.fieldsOf(field, false);
    if (fields.size === 0) return matchNone(`unmapped field ${field}`);
    return perField(fields, (f) => fuzzyField(this.env, f, text, edits, this.settings.fuzzy), this.tieBreaker);
  }
}

/** Queries.fixNegativeQueryIfNeeded: a boolean query of prohibited clauses only also requires every document. */
export function fixNegativeQuery(query: LQuery): LQuery {
  if (query.type !== 'bool' || query.clauses.length === 0 || query.clauses.some((c) => c.occur !== 'must_not')) return query;
  return booleanQuery([...query.clauses, { occur: 'filter', query: MATCH_ALL }], query.minimumShouldMatch);
}

/** The default field, the fields it stands for, and whether the query is lenient (QueryStringQueryBuilder.doToQuery). */
function defaultFields(build: BuildContext, settings: ClassicSettings): { field: string | null; weights: ReadonlyMap<string, number>; lenient: boolean } {
  const { defaultField, fields, lenient } = settings;
  if (defaultField !== null && !isMatchAll(defaultField)) return { field: defaultField, weights: new Map(), lenient: lenient ?? false };
  if (defaultField === null && fields !== null && fields.size > 0) return { field: null, weights: resolveFields(build, fields), lenient: lenient ?? hasAllFields(fields.keys()) };
  return { field: '*', weights: resolveField(build, '*', 1, false, null), lenient: lenient ?? true };
}

/**
 * QueryStringQueryBuilder.doToQuery: the default field, fields and leniency; the parsed query
 * built; then, under its boosts, the negative fix and minimum_should_match. `ast` null: the query
 * string is blank (QueryStringQueryParser.parse: nothing matches).
 */
export function classicQuery(build: BuildContext, ast: QueryNode | null, settings: ClassicSettings): LQuery {
  if (ast === null) return matchNone('Matching no documents because no terms present');
  const { field, weights, lenient } = defaultFields(build, settings);
  let query = new ClassicBuilder(build, settings, field, weights, lenient).query(ast, field);
  // QueryParserBase.parse: no query at all is an empty boolean query
  if (query === null) return matchNone('empty boolean query');
  const boosts: number[] = [];
  while (query.type === 'boost') {
    boosts.push(query.boost);
    query = query.query;
  }
  query = fixNegativeQuery(query);
  if (query.type === 'bool') query = applyMinimumShouldMatch(query as BooleanQuery, settings.minimumShouldMatch);
  for (let i = boosts.length - 1; i >= 0; i--) query = boostQuery(query, boosts[i]);
  return query;
}
