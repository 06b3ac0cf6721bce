/**
 * The deployment files of the Elasticsearch store: docker-compose.yml is validated by
 * `docker-compose config` (Debian's docker-compose package; CI installs it), and the compose file,
 * Dockerfile and .dockerignore hold what docs/elasticsearch.md promises.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const read = (name: string) => readFileSync(join(ROOT, name), 'utf8');
const hasCompose = spawnSync('docker-compose', ['version'], { stdio: 'ignore' }).status === 0;
const SECRET = 'a-secret-for-validation-only-0123456789abcdef';

const compose = (args: string[], env: Record<string, string | undefined>) =>
  spawnSync('docker-compose', ['-f', join(ROOT, 'docker-compose.yml'), ...args], { cwd: ROOT, env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env }, encoding: 'utf8' });

(hasCompose ? describe : describe.skip)(`docker-compose config${hasCompose ? '' : ' (skipped: docker-compose not installed; apt-get install docker-compose)'}`, () => {
  it('validates docker-compose.yml, with and without AUTH_SECRET (as .ci/run does)', () => {
    for (const env of [{ AUTH_SECRET: SECRET }, {}]) {
      const result = compose(['config', '-q'], env);
      expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: '' });
    }
  });

  it('passes AUTH_SECRET to the gateways, and publishes every port on 127.0.0.1 unless told otherwise', () => {
    const result = compose(['--profile', 'two', 'config'], { AUTH_SECRET: SECRET });
    expect(result.stdout.split(`AUTH_SECRET: ${SECRET}`)).toHaveLength(3);
    const published = compose(['--profile', 'two', 'config'], {}).stdout;
    expect(published).toContain('insecure-local-only-secret');
    expect(published.match(/host_ip: 127\.0\.0\.1|127\.0\.0\.1:/g)?.length).toBeGreaterThanOrEqual(3);
  });

  it('has the two-instance profile, both instances joined through Redis', () => {
    const services = execFileSync('docker-compose', ['-f', join(ROOT, 'docker-compose.yml'), '--profile', 'two', 'config', '--services'], { cwd: ROOT, env: { ...process.env, AUTH_SECRET: SECRET }, encoding: 'utf8' });
    expect(services.split('\n').filter(Boolean).sort()).toEqual(['elasticsearch', 'gateway', 'gateway-2', 'redis']);
    const config = compose(['--profile', 'two', 'config'], { AUTH_SECRET: SECRET }).stdout;
    expect(config.split('REDIS_URL: redis://redis:6379')).toHaveLength(3);
  });
});

describe('deployment files', () => {
  it('docker-compose.yml: one Elasticsearch 8 node, health-checked, on a named volume; gateways after it is healthy', () => {
    const text = read('docker-compose.yml');
    expect(text).toMatch(/image: docker\.elastic\.co\/elasticsearch\/elasticsearch:\$\{ELASTICSEARCH_VERSION:-8\.\d+\.\d+\}/);
    expect(text).toContain('discovery.type: single-node');
    expect(text).toContain('xpack.security.enabled: "false"');
    expect(text).toContain('_cluster/health?wait_for_status=yellow');
    expect(text).toMatch(/- esdata:\/usr\/share\/elasticsearch\/data/);
    expect(text).toMatch(/\nvolumes:\n {2}esdata:/);
    expect(text).toMatch(/depends_on:\n\s+elasticsearch:\n\s+condition: service_healthy/);
    expect(text).toContain('ELASTICSEARCH_URL: http://elasticsearch:9200');
    expect(text).toContain('AUTH_SECRET: ${AUTH_SECRET:-');
    expect(text).toContain('"${GATEWAY_BIND:-127.0.0.1}:${GATEWAY_PORT:-7512}:7512"');
    expect(text).toContain('profiles: ["two"]');
  });

  it('Dockerfile: node:20-slim, npm ci, build, production, port 7512, node dist/src/main.js', () => {
    const text = read('Dockerfile');
    expect(text).toMatch(/^FROM node:20-slim AS build$/m);
    expect(text).toMatch(/^FROM node:20-slim$/m);
    expect(text).toContain('RUN npm ci --no-audit --no-fund');
    expect(text).toContain('npm run build');
    expect(text).toMatch(/NODE_ENV=production/);
    expect(text).toMatch(/^EXPOSE 7512$/m);
    expect(text).toMatch(/^CMD \["node", "dist\/src\/main\.js"\]$/m);
    // what the image needs at run time is copied
    for (const needed of ['schema.graphql', 'package-lock.json', 'tsconfig.build.json', 'src']) expect(text).toContain(needed);
  });

  it('.dockerignore keeps local state and build output out of the build context', () => {
    const lines = read('.dockerignore').split('\n');
    for (const entry of ['node_modules', 'dist', 'data', '.git', '.env']) expect(lines).toContain(entry);
    for (const needed of ['src', 'schema.graphql', 'package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json']) expect(lines).not.toContain(needed);
  });
});
