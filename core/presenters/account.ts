/** The account as clients see it: every field an answer about an account shows. */
import type { AccountRow } from '../../store/accounts.js';

export function presentAccount(row: AccountRow) {
  return {
    id: row.id,
    email: row.email,
    locale: row.locale,
    timeZone: row.time_zone,
    createdAt: row.created_at.toISOString(),
    provisional: row.email === null,
    emailVerified: row.email_verified_at !== null,
    createdBy: row.created_by,
  };
}
