/** Moderation: a banned page keeps its name and data but cannot be edited until a person clears it. */
import { type PageRow, pagesRepo } from '../../store/pages.js';
import type { Services } from '../services.js';

export async function banPage(s: Services, username: string, reason: string): Promise<PageRow | undefined> {
  return pagesRepo(s.db).setBan(username, { at: s.now(), reason });
}

export async function unbanPage(s: Services, username: string): Promise<PageRow | undefined> {
  return pagesRepo(s.db).setBan(username, null);
}
