/** The account as clients see it: every field an answer about an account shows. */
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
