/**
 * WebSocket load generator, run as its own process (like wrk): N connections, each with one request
 * in flight, for D seconds; prints one JSON line {requestsPerSec, p50Ms, p99Ms, errors}.
 * Usage: node wsLoad.js <url> <connections> <seconds> <message-json>
 */
import WebSocket from 'ws';

async function main() {
  const [url, connections, seconds, template] = process.argv.slice(2);
  // The message is serialised once; each send only splices in a new requestId. Answers are not parsed:
  // the generator must cost as little as wrk does on the HTTP side.
  const body = JSON.stringify(JSON.parse(template) as Record<string, unknown>).slice(1);
  const latencies: number[] = [];
  let errors = 0;
  /** Every answer, warm-up included (the server's CPU is measured over the whole run). */
  let answered = 0;
  let running = true;
  const sockets = await Promise.all(
    Array.from({ length: Number(connections) }, () => new Promise<WebSocket>((resolve, reject) => {
      // As lean as wrk on the HTTP side: answers are not decoded, so not validated either, and the
      // frames sent are masked with zeros (a mask is required, its value is free; all-zero skips the XOR)
      const ws = new WebSocket(url, { perMessageDeflate: false, skipUTF8Validation: true, generateMask: (mask: Buffer) => void mask.fill(0) });
      ws.once('open', () => resolve(ws));
      ws.once('error', reject);
    })),
  );
  const started = process.hrtime.bigint();
  let measuredFrom = started;
  let counting = false;
  const loops = sockets.map(
    (ws, i) =>
      new Promise<void>((done) => {
        let n = 0;
        let sentAt = 0;
        const send = () => {
          if (!running) return done();
          sentAt = performance.now();
          ws.send(`{"requestId":"${i}-${n++}",${body}`);
        };
        ws.on('message', (data: Buffer) => {
          answered++;
          if (counting) {
            latencies.push(performance.now() - sentAt);
            if (data.indexOf('"status":200,') === -1) errors++;
          }
          send();
        });
        send();
      }),
  );
  // One second of warm-up, then measure.
  await new Promise((r) => setTimeout(r, 1000));
  counting = true;
  measuredFrom = process.hrtime.bigint();
  await new Promise((r) => setTimeout(r, Number(seconds) * 1000));
  running = false;
  const elapsed = Number(process.hrtime.bigint() - measuredFrom) / 1e9;
  await Promise.race([Promise.all(loops), new Promise((r) => setTimeout(r, 2000))]);
  for (const ws of sockets) ws.terminate();
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
  process.stdout.write(`${JSON.stringify({ requests: answered, requestsPerSec: latencies.length / elapsed, p50Ms: at(0.5), p99Ms: at(0.99), errors })}\n`);
  void started;
}
void main();
