/**
 * What the composition root tells the `server` controller about this gateway (server:info,
 * server:getConfig) and the actions it answers with their role rules (server:info,
 * auth:checkRights). Nothing secret: `config` is the settings with every secret taken out.
 */
import type { Principal } from '../principal';

/** One controller:action this gateway answers. Operations are ApiActions (core/operation.ts). */
export interface ApiAction {
  controller: string;
  action: string;
  /** Answers without authentication. */
  public?: boolean;
  /** The role rule of the action; absent: any authenticated caller. */
  allows?(principal: Principal): boolean;
}

export interface ServerFacts {
  /** package.json's name and version. */
  name: string;
  version: string;
  /** The Node.js version serving (process.version). */
  nodeVersion: string;
  /** When this process was built, ms since Epoch (uptime). */
  startedAt: number;
  /** The settings without any secret. */
  config: Record<string, unknown>;
  /** Every action this gateway answers, the raw WebSocket's realtime controller included. */
  actions: readonly ApiAction[];
}

/** The realtime controller's actions (served by the raw WebSocket, outside the dispatcher): anyone authenticated. */
export const REALTIME_ACTIONS: readonly ApiAction[] = [
  { controller: 'realtime', action: 'subscribe' },
  { controller: 'realtime', action: 'unsubscribe' },
];

/** Facts when the composition root gave none (unit tests of other parts): nothing but the runtime. */
export const UNKNOWN_FACTS: ServerFacts = Object.freeze({
  name: 'entity-gateway',
  version: 'unknown',
  nodeVersion: process.version,
  startedAt: 0,
  config: {},
  actions: REALTIME_ACTIONS,
});
