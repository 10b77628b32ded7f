/** Free alternatives to a taken name: candidates by the rules, filtered by the store. */
import type { Queryable } from '../../platform/store/db.js';
import { namesRepo } from '../../platform/store/names.js';
import { usernameCandidates } from '../rules/username.js';

export async function suggestFreeNames(
  db: Queryable,
  name: string,
  accountId: string | null,
  count = 3,
): Promise<string[]> {
  const candidates = usernameCandidates(name);
  const taken = await namesRepo(db).taken(candidates, accountId);
  return candidates.filter((c) => !taken.has(c)).slice(0, count);
}
