/**
 * bench:abuse's abusers, run as their own process (at a lower priority, see abuse.ts): `connections`
 * keep-alive connections, each sending its next abusive request as soon as the previous one is
 * answered (or given up after the client timeout), the kinds in rotation over all connections.
 * "start" starts them; "stop" stops sending and answers, once every request in flight is answered
 * or given up, with each kind's latencies and outcomes.
 */
import type { Agent } from 'node:http';
import { oneConnection, record, send, tally, type Tally } from './http';
import { abuseKinds, type AbuseKind } from './kinds';

export interface StartRequest {
  cmd: 'start';
  port: number;
  token: string;
  connections: number;
  timeoutMs: number;
}

export interface Stopped {
  cmd: 'stopped';
  /** Per kind, in the order of abuseKinds(). */
  kinds: Tally[];
  /** From "stop" to the last request in flight answered or given up. */
  drainMs: number;
  /** Requests in flight when "stop" came. */
  inFlightAtStop: number;
}

let kinds: AbuseKind[] | undefined;
/** Unique over the whole run: every request a new one for the request cache. */
let sent = 0;
let running = false;
let inFlight = 0;
let loops: Promise<void>[] = [];
let agents: Agent[] = [];
let tallies: Tally[] = [];

async function abuse(agent: Agent, { port, token, timeoutMs }: StartRequest): Promise<void> {
  while (running) {
    const n = sent++;
    const kind = kinds![n % kinds!.length];
    inFlight++;
    const answer = await send(agent, port, 'POST', kind.path, token, kind.body(n), timeoutMs);
    inFlight--;
    record(tallies[n % kinds!.length], answer);
    if (answer.failure === 'ECONNREFUSED') await new Promise((r) => setTimeout(r, 100)); // the gateway is gone: no busy loop
  }
}

process.on('message', (msg: StartRequest | { cmd: 'stop' } | { cmd: 'prepare' }) => {
  if (msg.cmd === 'prepare') {
    kinds ??= abuseKinds();
    process.send!({ cmd: 'prepared', kinds: kinds.map((k) => ({ name: k.name, expect: k.expect, bytes: k.bytes })) });
  } else if (msg.cmd === 'start') {
    kinds ??= abuseKinds();
    running = true;
    tallies = kinds.map(() => tally());
    agents = Array.from({ length: msg.connections }, oneConnection);
    loops = agents.map((agent) => abuse(agent, msg));
    process.send!({ cmd: 'started' });
  } else if (msg.cmd === 'stop') {
    running = false;
    const stoppedAt = performance.now();
    const inFlightAtStop = inFlight;
    void Promise.all(loops).then(() => {
      for (const agent of agents) agent.destroy();
      const reply: Stopped = { cmd: 'stopped', kinds: tallies, drainMs: performance.now() - stoppedAt, inFlightAtStop };
      process.send!(reply);
    });
  }
});
process.on('disconnect', () => process.exit(0));
