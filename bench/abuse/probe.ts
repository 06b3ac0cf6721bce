/**
 * bench:abuse's measuring client, run as its own process (see abuse.ts on why): one connection,
 * one request at a time, alternating GET /healthz and a plain search (a match on name of one word of
 * the corpus vocabulary, size 10), for the seconds it is asked; it answers with every latency.
 *
 * The words are the vocabulary in a shuffled order, taken in turn for the whole run: a word comes
 * back only after 4,999 other searches, long after the request cache (1,000 entries by default)
 * has dropped it, so that the engine runs every search measured.
 */
import { prng, vocabulary } from '../lib/corpus';
import { oneConnection, record, send, tally, type Tally } from './http';
import { SEARCH_PATH } from './kinds';

export interface MeasureRequest {
  cmd: 'measure';
  port: number;
  token: string;
  seconds: number;
  timeoutMs: number;
}

export interface Measured {
  cmd: 'measured';
  healthz: Tally;
  search: Tally;
}

const words = vocabulary();
const rand = prng(2024);
for (let i = words.length - 1; i > 0; i--) {
  const j = Math.floor(rand() * (i + 1));
  [words[i], words[j]] = [words[j], words[i]];
}
let next = 0;

async function measure({ port, token, seconds, timeoutMs }: MeasureRequest): Promise<Measured> {
  // a new connection per phase: one idle between phases could be closed by the server as it is reused
  const agent = oneConnection();
  const healthz = tally();
  const search = tally();
  const end = performance.now() + seconds * 1000;
  try {
    while (performance.now() < end) {
      record(healthz, await send(agent, port, 'GET', '/healthz', undefined, undefined, timeoutMs));
      const body = JSON.stringify({ query: { match: { name: words[next++ % words.length] } } });
      const answer = await send(agent, port, 'POST', `${SEARCH_PATH}?size=10`, token, body, timeoutMs);
      record(search, answer);
      if (answer.failure === 'ECONNREFUSED') break; // the gateway is gone: the conductor reports it
    }
  } finally {
    agent.destroy();
  }
  return { cmd: 'measured', healthz, search };
}

process.on('message', (msg: MeasureRequest) => {
  if (msg.cmd === 'measure') void measure(msg).then((result) => process.send!(result));
});
// the bench went away (even killed): go too
process.on('disconnect', () => process.exit(0));
