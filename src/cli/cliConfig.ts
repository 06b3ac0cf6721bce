/** The settings a command runs with (the gateway's, from the environment), or null once it has said why they are not usable (the command then exits 2). */
import { ConfigError, loadConfig, type Config } from '../config';

export function loadCliConfig(env: NodeJS.ProcessEnv, say: (text: string) => void): Config | null {
  try {
    return loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) {
      say(err.message);
      return null;
    }
    throw err;
  }
}
