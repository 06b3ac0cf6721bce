/**
 * npm run token -- --user alice --tenant acme [--roles admin,writer] [--expires 1h]
 * Prints a JWT signed with the same secret (AUTH_SECRET, or the one in DATA_DIR) as the server uses.
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../config';
import { resolveSecret } from '../core/auth/secret';
import { TokenService } from '../core/auth/tokens';
import { parseDuration } from '../core/duration';

const USAGE = 'usage: npm run token -- --user <id> [--tenant <id>] [--roles a,b] [--expires 1h|never] [--name "Alice"]';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      user: { type: 'string' },
      tenant: { type: 'string' },
      roles: { type: 'string', default: '' },
      expires: { type: 'string', default: '1h' },
      name: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help || !values.user) {
    process.stderr.write(`${USAGE}\n`);
    process.exit(values.help ? 0 : 2);
  }
  const expires = values.expires === 'never' ? -1 : parseDuration(values.expires);
  if (expires === undefined || expires === 0 || (expires < 0 && expires !== -1)) {
    process.stderr.write(`--expires: "${values.expires}" is not a duration (e.g. 1h, 7d) nor "never"\n${USAGE}\n`);
    process.exit(2);
  }
  const config = loadConfig();
  const { secret } = resolveSecret(config.auth.secret, config.dataDir);
  const roles = values.roles.split(',').map((r) => r.trim()).filter((r) => r !== '');
  const claims: Record<string, unknown> = { sub: values.user, roles };
  if (values.tenant) claims[config.auth.tenantClaim] = values.tenant;
  if (values.name) claims.name = values.name;
  process.stdout.write(`${await new TokenService(secret).sign(claims, expires)}\n`);
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
