/** The closed list of operations, by controller. */
import { checkTokenOperation } from './apiKeys/checkToken';
import { createApiKeyOperation } from './apiKeys/createApiKey';
import { deleteApiKeyOperation } from './apiKeys/deleteApiKey';
import { searchApiKeysOperation } from './apiKeys/searchApiKeys';
import { countEntitiesOperation } from './entities/countEntities';
import { createEntityOperation } from './entities/createEntity';
import { deleteEntityOperation } from './entities/deleteEntity';
import { getEntityOperation } from './entities/getEntity';
import { mCreateEntitiesOperation } from './entities/mCreateEntities';
import { replaceEntityOperation, updateEntityOperation } from './entities/replaceEntity';
import { searchEntitiesOperation } from './entities/searchEntities';
import type { Operation } from './operation';

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
];
