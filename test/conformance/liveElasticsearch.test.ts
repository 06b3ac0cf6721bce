/**
 * Says, once per run, whether the conformance suite ran on a live Elasticsearch. Without
 * ELASTICSEARCH_URL every "[elasticsearch]" block of the suite is skipped (their names say why);
 * docs/elasticsearch.md, "Conformance suite", shows how to run them against docker-compose's node.
 */
import { Client } from '@elastic/elasticsearch';
import { LIVE_URL, SKIP_REASON, TARGETS } from './support/targets';

if (LIVE_URL === undefined) {
  console.warn(
    `conformance suite on Elasticsearch: ${SKIP_REASON}. Ran on: ${TARGETS.map((t) => t.name).join(', ')}. ` +
      'To run it on a real node: docker compose up -d elasticsearch && ELASTICSEARCH_URL=http://localhost:9200 npx jest test/conformance',
  );
  describe.skip(`conformance suite on a live Elasticsearch (${SKIP_REASON})`, () => {
    it('runs every test/conformance block on the cluster named by ELASTICSEARCH_URL', () => undefined);
  });
} else {
  describe('conformance suite on a live Elasticsearch', () => {
    it('reaches an Elasticsearch 8 node at ELASTICSEARCH_URL', async () => {
      const client = new Client({ node: LIVE_URL });
      try {
        const info = await client.info();
        expect(info.version.number).toMatch(/^8\./);
      } finally {
        await client.close();
      }
    });
  });
}
