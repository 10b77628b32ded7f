/**
 * `npm start`: one process for the configured role. ROLE=all (the default) runs the API, the
 * page router and the background jobs on one port; api, router and worker run their part.
 * Configuration is read here, once.
 */
import { type Config, ConfigError, loadConfig } from './core/config.js';
import { startProcess } from './start/process.js';

function readConfig(): Config {
  try {
    return loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`Configuration error: ${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
}

async function main() {
  const running = await startProcess({ config: readConfig() });
  const stop = async (signal: string) => {
    running.services.log.info({ signal }, 'shutting down');
    await running.stop();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((err) => {
  process.stderr.write(`Failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
