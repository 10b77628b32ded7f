/**
 * The agent's one-call onboarding: with no key, a new account (provisional, or claimed with
 * email + password), its page, an API key and a claim link; with a key, another page on that
 * account. All or nothing: what is fetched from elsewhere (avatarUrl, importFromUrl) comes
 * first, and a failure leaves nothing behind.
 */

import { importLinks } from '../../platform/outbound/linkPage.js';
import { accountsRepo } from '../../platform/store/accounts.js';
import type { Queryable } from '../../platform/store/db.js';
import type { Caller } from '../caller.js';
import type { Page } from '../entities.js';
import { AppError } from '../errors.js';
import { emitPageChange } from '../events.js';
import type { CommandLimits } from '../limiter.js';
import { defaultProfile } from '../model.js';
import { blockListProblems, normalizeBlocks } from '../rules/blocks.js';
import type { CreatePageInput } from '../schemas/agent.js';
import { AgentBlock, type AgentBlockInput, MAX_BLOCKS } from '../schemas/blocks.js';
import { hashPassword, newId } from '../secrets.js';
import type { Services } from '../services.js';
import type { Transaction } from '../transaction.js';
import { parseOrThrow } from '../validation.js';
import { issueApiKey } from './apiKeys.js';
import { issueClaimLink } from './claimLinks.js';
import { discardImages, storeImageFromUrl } from './images.js';
import { ensureProgramSlot, insertPage, uniqueViolationToError } from './newPage.js';

export interface CreatedAgentPage {
  account: { id: string; provisional: boolean };
  page: Page;
  /** Only for a new account: its first key (shown once) and, when provisional, its claim link. */
  apiKey?: string;
  claim?: { claimUrl: string; expiresAt: string };
}

/**
 * Checks of a create request that need no database, every problem in order. `input` is the
 * parsed request, or (validate) the raw one that failed its schema: email and password count
 * as sent when present, and the blocks are checked as far as they have the right form.
 */
export function createRequestProblems(
  input: { email?: unknown; password?: unknown; page?: { blocks?: readonly unknown[] } },
  accountId: string | null,
): AppError[] {
  const problems: AppError[] = [];
  if (accountId !== null && (input.email !== undefined || input.password !== undefined)) {
    const field = input.email !== undefined ? 'email' : 'password';
    problems.push(invalid(field, "With a key the page is added to the key's account; leave out email and password."));
  } else if ((input.email === undefined) !== (input.password === undefined)) {
    const field = input.email === undefined ? 'email' : 'password';
    problems.push(invalid(field, 'Send email and password together, or neither for a provisional account.'));
  }
  problems.push(...blockListProblems(input.page?.blocks ?? [], 'page.blocks', accountId));
  return problems;
}

/**
 * POST /api/agent/pages and the create_page tool. The writes run in `o.transaction` (an
 * idempotent request's, which replays instead of calling back when the key was used); the
 * create is counted in it against `o.limits.create`, and each fetch against `beforeFetch`.
 */
export async function createAgentPage(
  s: Services,
  caller: Caller,
  input: CreatePageInput,
  o: { transaction?: Transaction<CreatedAgentPage>; limits: CommandLimits },
): Promise<CreatedAgentPage> {
  const [problem] = createRequestProblems(input, caller.accountId);
  if (problem) throw problem;
  const { create, beforeFetch = async () => {} } = o.limits;
  create?.check();
  const now = s.now();
  const passwordHash = input.password !== undefined ? await hashPassword(input.password, s.config.passwordCost) : null;
  const accountId = caller.accountId ?? newId();
  const fetched = await fetchFromElsewhere(s, input, accountId, beforeFetch);
  const transaction = o.transaction ?? ((work) => s.db.transaction(work));
  let created: CreatedAgentPage;
  try {
    created = await transaction(async (tx) => {
      await create?.count(tx);
      return createInTransaction(s, tx, caller, input, { accountId, passwordHash, now, ...fetched });
    });
  } catch (err) {
    await discardImages(s, fetched.avatar ? [fetched.avatar] : []);
    throw await uniqueViolationToError(s.db, err, input.username, caller.accountId);
  }
  await s.publisher.publishSoon(input.username);
  // Only an existing account (a key) can have webhooks to tell.
  if (caller.accountId) s.webhooks.kick();
  return created;
}

/** What `importFromUrl` and `avatarUrl` bring, fetched before anything is written. */
interface Fetched {
  /** Link blocks read from importFromUrl, after the blocks sent. */
  importedBlocks: AgentBlockInput[];
  /** Storage key of the avatar fetched from avatarUrl. */
  avatar: string | null;
}

/**
 * Fetches the link page first (it writes nothing), then the avatar (stored for the account
 * being created, and removed again if the page is not created after all).
 */
async function fetchFromElsewhere(
  s: Services,
  input: CreatePageInput,
  accountId: string,
  beforeFetch: () => Promise<void>,
): Promise<Fetched> {
  let importedBlocks: AgentBlockInput[] = [];
  if (input.importFromUrl !== undefined) {
    await beforeFetch();
    const links = await importLinks(s.fetcher, input.importFromUrl, 'importFromUrl');
    const sent = input.page?.blocks?.length ?? 0;
    if (sent + links.length > MAX_BLOCKS) {
      throw invalid(
        'importFromUrl',
        `That page has ${links.length} links; with the ${sent} blocks sent the page would pass ${MAX_BLOCKS} blocks.`,
      );
    }
    importedBlocks = links.map((l) => parseOrThrow(AgentBlock, { type: 'link', label: l.label, url: l.url }));
  }
  let avatar: string | null = null;
  if (input.avatarUrl !== undefined) {
    await beforeFetch();
    avatar = (await storeImageFromUrl(s, accountId, 'avatar', input.avatarUrl, 'avatarUrl')).key;
  }
  return { importedBlocks, avatar };
}

async function createInTransaction(
  s: Services,
  tx: Queryable,
  caller: Caller,
  input: CreatePageInput,
  prepared: Fetched & { accountId: string; passwordHash: string | null; now: Date },
): Promise<CreatedAgentPage> {
  const { accountId, now } = prepared;
  const isNewAccount = caller.accountId === null;
  if (!isNewAccount) {
    await ensureProgramSlot(tx, accountId);
  } else {
    if (input.email !== undefined && (await accountsRepo(tx).emailTaken(input.email))) {
      throw new AppError('email_taken', { field: 'email' });
    }
    await accountsRepo(tx).insert({
      id: accountId,
      email: input.email ?? null,
      passwordHash: prepared.passwordHash,
      locale: input.locale ?? 'en',
      createdBy: caller.userAgent,
      now,
    });
  }

  const page = input.page ?? {};
  const profile = defaultProfile(input.username, page.pageLocale ?? input.locale ?? 'en');
  const row = await insertPage(tx, {
    accountId,
    username: input.username,
    byProgram: true,
    isPublished: input.publish ?? true,
    createdBy: caller.userAgent,
    author: caller.author,
    profile: {
      ...profile,
      displayName: page.displayName ?? profile.displayName,
      bio: page.bio ?? profile.bio,
      avatar: prepared.avatar,
      avatarFocus: page.avatarFocus ?? null,
      templateId: page.templateId ?? profile.templateId,
      layout: page.layout ?? profile.layout,
      headerAlign: page.headerAlign ?? null,
      utm: page.utm ?? false,
      adult: page.adult ?? false,
      branding: page.branding ?? true,
      theme: { ...profile.theme, ...page.theme },
    },
    blocks: normalizeBlocks([...(page.blocks ?? []), ...prepared.importedBlocks]),
    now,
  });
  await emitPageChange(tx, s, null, row);

  if (!isNewAccount) {
    const account = await accountsRepo(tx).find(accountId);
    return { account: { id: accountId, provisional: account?.email === null }, page: row };
  }
  const key = await issueApiKey(tx, { accountId, label: 'Created with the account', createdBy: caller.userAgent, now });
  const created: CreatedAgentPage = {
    account: { id: accountId, provisional: input.email === undefined },
    page: row,
    apiKey: key.apiKey,
  };
  if (input.email === undefined) created.claim = await issueClaimLink(s, tx, accountId, now);
  return created;
}

function invalid(field: string, hint: string): AppError {
  return new AppError('invalid_fields', { field, detail: field, hint });
}
