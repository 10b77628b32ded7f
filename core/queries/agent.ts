/** Reads behind the agent endpoints, shared by the REST routes and the MCP tools. */
import { accountsRepo } from '../../platform/store/accounts.js';
import { namesRepo } from '../../platform/store/names.js';
import { pagesRepo } from '../../platform/store/pages.js';
import { createRequestProblems } from '../commands/createAgentPage.js';
import { programSlotsLeft } from '../commands/newPage.js';
import { AppError } from '../errors.js';
import { presentAccount } from '../presenters/account.js';
import { presentPageSummary } from '../presenters/page.js';
import { type Grant, withinGrant } from '../rules/roles.js';
import { usernameProblem } from '../rules/username.js';
import { CreatePageRequest } from '../schemas/agent.js';
import type { Services } from '../services.js';
import { allProblems } from '../validation.js';
import { pageStatesOf } from './publishState.js';
import { suggestFreeNames } from './suggestNames.js';

/** GET /api/agent/me: the account, the caller's role, the pages it reaches and the program-made page slots left. */
export async function describeAccount(s: Services, accountId: string, grant: Grant) {
  const account = await accountsRepo(s.db).find(accountId);
  if (!account) throw new AppError('unauthorized');
  const pages = withinGrant(grant, await pagesRepo(s.db).listByAccount(accountId));
  const states = await pageStatesOf(s, pages);
  return {
    account: presentAccount(account),
    role: grant.role,
    pages: pages.map((p) => presentPageSummary(s.config, p, states)),
    remainingPageSlots: programSlotsLeft(account),
  };
}

/** Every problem of a create-page request: schema, cross-field rules and the store's answers. */
export async function validateCreateRequest(s: Services, body: unknown, accountId: string | null): Promise<AppError[]> {
  const { output, problems } = allProblems(CreatePageRequest, body);
  const raw = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  if (typeof raw.username === 'string' && usernameProblem(raw.username) === null) {
    const taken = await namesRepo(s.db).taken([raw.username], accountId);
    if (taken.has(raw.username)) {
      problems.push(
        new AppError('username_taken', {
          field: 'username',
          suggestions: await suggestFreeNames(s.db, raw.username, accountId),
        }),
      );
    }
  }
  if (accountId === null && typeof raw.email === 'string' && !problems.some((p) => p.fields.field === 'email')) {
    if (await accountsRepo(s.db).emailTaken(raw.email)) problems.push(new AppError('email_taken', { field: 'email' }));
  }
  // The rules across fields run on the raw body too when the schema refused it, so validate
  // reports every problem at once; a field the schema named already is not named again.
  const named = new Set(problems.map((p) => p.fields.field));
  const page = raw.page as { blocks?: unknown } | undefined;
  const blocks = typeof page === 'object' && page !== null && Array.isArray(page.blocks) ? page.blocks : [];
  const loose = output ?? { email: raw.email, password: raw.password, page: { blocks } };
  problems.push(...createRequestProblems(loose, accountId).filter((p) => !named.has(p.fields.field)));
  if (accountId !== null && programSlotsLeft(await accountsRepo(s.db).find(accountId)) === 0) {
    problems.push(new AppError('limit_reached', { field: 'page' }));
  }
  return problems;
}
