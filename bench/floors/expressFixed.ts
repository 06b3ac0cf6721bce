/** Reference: express 5 answering every POST with the same fixed envelope as the bare Node floor (body parsed as JSON). */
import express from 'express';
import { createServer } from 'node:http';

const payload = { requestId: '00000000-0000-4000-8000-000000000000', status: 200, error: null, controller: 'document', action: 'search', collection: 'things', index: 'entity', volatile: null, result: { hits: [], total: 0 } };
const app = express();
app.post('*splat', express.json(), (_req, res) => {
  res.json(payload);
});
const server = createServer(app);
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  process.stdout.write(`listening ${(server.address() as { port: number }).port}\n`);
});
