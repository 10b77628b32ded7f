/**
 * Moderation from the command line: `npm run ban -- <username> "<reason>"`, `npm run unban -- <username>`.
 * Uses the same configuration (DATABASE_URL, DATA_DIR) as the service.
 */
import path from 'node:path';
import { pino } from 'pino';
import { banPage, unbanPage } from '../api/commands/moderation.js';
import { buildServices } from '../api/services.js';
import { loadConfig, loadSecret } from '../config.js';
import { openDatabase } from '../store/db.js';
import { migrate } from '../store/migrate.js';

const [action, username, ...reasonWords] = process.argv.slice(2);
const reason = reasonWords.join(' ').trim();
if (!['ban', 'unban'].includes(action) || !username || (action === 'ban' && !reason)) {
  process.stderr.write('usage: npm run ban -- <username> "<reason>"  |  npm run unban -- <username>\n');
  process.exit(2);
}

const config = loadConfig();
const db = await openDatabase({ url: config.databaseUrl, dataDir: path.join(config.dataDir, 'db') });
await migrate(db);
const services = buildServices({
  config,
  db,
  secret: loadSecret(config),
  log: pino({ level: 'silent' }),
  now: () => new Date(),
});
const row = action === 'ban' ? await banPage(services, username, reason) : await unbanPage(services, username);
await db.close();
if (!row) {
  process.stderr.write(`No page is named ${username}.\n`);
  process.exit(1);
}
process.stdout.write(action === 'ban' ? `Banned ${username}: ${reason}\n` : `Cleared the ban on ${username}.\n`);
