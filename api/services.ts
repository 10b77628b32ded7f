/** What every command and route is handed: configuration, database, secret, logger and clock. */
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { Database } from '../store/db.js';

export interface Services {
  config: Config;
  db: Database;
  /** Server secret for address hashes and sealed replays. */
  secret: string;
  log: Logger;
  /** The clock; tests drive it. */
  now: () => Date;
}

/** Public address of a page: `<scheme>//<username>.<PAGE_DOMAIN>/`. */
export function pageUrl(config: Config, username: string): string {
  return `${config.pageScheme}//${username}.${config.pageDomain}/`;
}

export function claimUrl(config: Config, token: string): string {
  return `${config.baseUrl}/claim/${token}`;
}
