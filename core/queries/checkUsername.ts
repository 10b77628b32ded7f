/** Whether a username can be had: free, taken (with free suggestions) or invalid (with the rule). */
import { namesRepo } from '../../platform/store/names.js';
import { type UsernameProblem, usernameProblem } from '../rules/username.js';
import type { Services } from '../services.js';
import { suggestFreeNames } from './suggestNames.js';

export type UsernameVerdict =
  | { username: string; status: 'free' }
  | { username: string; status: 'taken'; suggestions: string[] }
  | { username: string; status: 'invalid'; reason: UsernameProblem };

export async function checkUsername(s: Services, username: string): Promise<UsernameVerdict> {
  const reason = usernameProblem(username);
  if (reason) return { username, status: 'invalid', reason };
  const taken = await namesRepo(s.db).taken([username], null);
  return taken.has(username)
    ? { username, status: 'taken', suggestions: await suggestFreeNames(s.db, username, null) }
    : { username, status: 'free' };
}
