/** The Account record (DESIGN 4). */
import type { Account } from '../entities.js';

export function presentAccount(row: Account) {
  return {
    id: row.id,
    email: row.email,
    locale: row.locale,
    timeZone: row.timeZone,
    createdAt: row.createdAt.toISOString(),
    provisional: row.email === null,
    emailVerified: row.emailVerifiedAt !== null,
    createdBy: row.createdBy,
  };
}
