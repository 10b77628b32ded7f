/**
 * Moderation from the command line: `npm run ban -- <username> "<reason>"`, `npm run unban -- <username>`.
 * Uses the same configuration (DATABASE_URL, DATA_DIR) as the service.
 */
import { banPage, unbanPage } from '../../core/commands/moderation.js';
import { startTool } from '../start/tool.js';

const [action, username, ...reasonWords] = process.argv.slice(2);
const reason = reasonWords.join(' ').trim();
if (!['ban', 'unban'].includes(action) || !username || (action === 'ban' && !reason)) {
  process.stderr.write('usage: npm run ban -- <username> "<reason>"  |  npm run unban -- <username>\n');
  process.exit(2);
}

const tool = await startTool();
const services = tool.services;
const row = action === 'ban' ? await banPage(services, username, reason) : await unbanPage(services, username);
await tool.stop();
if (!row) {
  process.stderr.write(`No page is named ${username}.\n`);
  process.exit(1);
}
process.stdout.write(action === 'ban' ? `Banned ${username}: ${reason}\n` : `Cleared the ban on ${username}.\n`);
