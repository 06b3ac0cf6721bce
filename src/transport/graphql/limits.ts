/**
 * Validation rules that refuse abusive operations before they run, over HTTP and WebSocket alike:
 * maximum depth, maximum cost and maximum aliases (graphql-armor's rules), each reported as a
 * validation error whose `extensions.code` names the limit.
 */
import { costLimitRule } from '@escape.tech/graphql-armor-cost-limit';
import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import { GraphQLError, specifiedRules, validate, type DocumentNode, type GraphQLSchema, type ValidationContext, type ValidationRule } from 'graphql';

export interface GraphQLLimits {
  maxDepth: number;
  maxCost: number;
  maxAliases: number;
}

/** Marks a limit error so that its code survives Apollo, which re-codes validation errors. */
export const LIMIT_EXTENSION = 'limit';

const report = (code: string) => (ctx: ValidationContext | null, error: GraphQLError) =>
  ctx?.reportError(new GraphQLError(error.message.replace(/^Syntax Error: /, ''), { extensions: { code, status: 400, [LIMIT_EXTENSION]: code } }));

export function limitRules(limits: GraphQLLimits): ValidationRule[] {
  const common = { exposeLimits: true, propagateOnRejection: false };
  return [
    maxDepthRule({ ...common, n: limits.maxDepth, ignoreIntrospection: true, onReject: [report('graphql.limit.max_depth')] }),
    costLimitRule({ ...common, maxCost: limits.maxCost, ignoreIntrospection: true, onReject: [report('graphql.limit.max_cost')] }),
    maxAliasesRule({ ...common, n: limits.maxAliases, onReject: [report('graphql.limit.max_aliases')] }),
  ] as unknown as ValidationRule[];
}

/** graphql's validate with the limits added (graphql-ws takes a validate function). */
export function validateWithLimits(rules: ValidationRule[]) {
  const all = [...specifiedRules, ...rules];
  return (schema: GraphQLSchema, document: DocumentNode) => validate(schema, document, all);
}
