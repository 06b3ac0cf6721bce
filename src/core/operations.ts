/** The closed list of operations, by controller. */
import { checkTokenOperation } from './apiKeys/checkToken';
import { createApiKeyOperation } from './apiKeys/createApiKey';
import { deleteApiKeyOperation } from './apiKeys/deleteApiKey';
import { searchApiKeysOperation } from './apiKeys/searchApiKeys';
import { checkRightsOperation } from './auth/checkRights';
import { getCurrentUserOperation } from './auth/getCurrentUser';
import { countEntitiesOperation } from './entities/countEntities';
import { createEntityOperation } from './entities/createEntity';
import { deleteEntityOperation } from './entities/deleteEntity';
import { getEntityOperation } from './entities/getEntity';
import { mCreateEntitiesOperation } from './entities/mCreateEntities';
import { replaceEntityOperation, updateEntityOperation } from './entities/replaceEntity';
import { searchEntitiesOperation } from './entities/searchEntities';
import type { Operation } from './operation';
import { createCollectionOperation } from './mappings/createCollection';
import { getMappingOperation } from './mappings/getMapping';
import { updateMappingOperation } from './mappings/updateMapping';
import { getConfigOperation } from './server/getConfig';
import { healthCheckOperation } from './server/healthCheck';
import { serverInfoOperation } from './server/info';
import { serverNowOperation } from './server/now';

export const operations: Operation[] = [
  createApiKeyOperation,
  searchApiKeysOperation,
  deleteApiKeyOperation,
  checkTokenOperation,
  searchEntitiesOperation,
  countEntitiesOperation,
  createEntityOperation,
  getEntityOperation,
  replaceEntityOperation,
  updateEntityOperation,
  deleteEntityOperation,
  mCreateEntitiesOperation,
  getMappingOperation,
  updateMappingOperation,
  createCollectionOperation,
  getCurrentUserOperation,
  checkRightsOperation,
  serverNowOperation,
  serverInfoOperation,
  healthCheckOperation,
  getConfigOperation,
];
