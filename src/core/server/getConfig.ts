/**
 * server:getConfig: the gateway's settings (Kuzzle's serverController.getConfig), as the
 * composition root gives them: without any secret (no AUTH_SECRET, no credentials of Elasticsearch
 * or Redis: src/publicConfig.ts). A copy: a caller cannot change what the next one reads.
 */
import { ok, type Result } from '../errors';
import { defineOperation } from '../operation';
import type { CoreDeps } from '../deps';
import { UNKNOWN_FACTS } from './serverFacts';

export const getConfig = (deps: CoreDeps): Result<Record<string, unknown>> => ok(structuredClone((deps.server ?? UNKNOWN_FACTS).config));

export const getConfigOperation = defineOperation<undefined, Record<string, unknown>>({
  controller: 'server',
  action: 'getConfig',
  addressesCollection: false,
  contract: {
    summary: "The gateway's settings",
    description: 'Every setting (README "Settings"), without any secret: no AUTH_SECRET, no credentials of Elasticsearch or Redis.',
    result: { title: 'PublicConfig', type: 'object' },
    resultExample: { nodeEnv: 'production', port: 7512, indexName: 'entity', limits: { maxBodyBytes: 1048576 } },
    errors: [],
  },
  parse: () => ok(undefined),
  run: getConfig,
});
