/**
 * Floor: a bare Node http server answering every request with a fixed envelope: by default an
 * empty search result, or the text of BENCH_PAYLOAD (the gateway's own answer, byte for byte).
 */
import { createServer } from 'node:http';

const payload = process.env.BENCH_PAYLOAD ?? JSON.stringify({
  requestId: '00000000-0000-4000-8000-000000000000',
  status: 200,
  error: null,
  controller: 'document',
  action: 'search',
  collection: 'things',
  index: 'entity',
  volatile: null,
  result: { hits: [], total: 0 },
});

const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(payload) });
    res.end(payload);
  });
});
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  process.stdout.write(`listening ${(server.address() as { port: number }).port}\n`);
});
