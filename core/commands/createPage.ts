/**
 * Creating pages: the agent's one-call onboarding (account + page + key + claim link) and
 * another subdomain on an existing account. Routes and MCP tools call these; nothing else
 * inserts pages.
 */

import { importLinks } from '../../outbound/linkPage.js';
import { accountsRepo } from '../../store/accounts.js';
import { type Queryable, sqlState, UNIQUE_VIOLATION } from '../../store/db.js';
import { idempotencyRepo } from '../../store/idempotency.js';
import { namesRepo } from '../../store/names.js';
import { type PageRow, pagesRepo } from '../../store/pages.js';
import { publishQueueRepo } from '../../store/publishQueue.js';
import { AppError } from '../errors.js';
import { type Block, defaultProfile, type Profile } from '../model.js';
import { presentPage } from '../presenters/page.js';
import { suggestFreeNames } from '../queries/suggestNames.js';
import { blockListProblems, normalizeBlocks } from '../rules/blocks.js';
import type { CreatePageInput } from '../schemas/agent.js';
import { AgentBlock, type AgentBlockInput, MAX_BLOCKS } from '../schemas/blocks.js';
import type { TemplateId } from '../schemas/fields.js';
import { hashPassword, newId, seal, sha256, unseal } from '../secrets.js';
import type { Services } from '../services.js';
import { parseOrThrow } from '../validation.js';
import { issueApiKey } from './apiKeys.js';
import { issueClaimLink } from './claimLinks.js';
import { discardImages, storeImageFromUrl } from './images.js';

/** Program-created pages per account (SPEC 8); pages people add by hand do not count. */
export const PROGRAM_PAGE_LIMIT = 10;

export interface Caller {
  /** The key's account, or null for a request without a key. */
  accountId: string | null;
  userAgent: string;
  /** Hashed client address: the idempotency scope of callers without a key. */
  addressHash: string;
}

export interface Answer {
  status: number;
  /** The serialised JSON body, replayed byte for byte on an idempotent retry. */
  json: string;
  /** True when this answer is a replay and nothing was created. */
  replayed: boolean;
}

/** Checks of a create request that need no database; the first problem is thrown. */
export function createRequestProblems(input: CreatePageInput, accountId: string | null): AppError[] {
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

/** POST /api/agent/pages. */
export async function createAgentPage(
  s: Services,
  caller: Caller,
  input: CreatePageInput,
  idempotencyKey: string | undefined,
): Promise<Answer> {
  const [problem] = createRequestProblems(input, caller.accountId);
  if (problem) throw problem;
  const now = s.now();
  const scope = caller.accountId ? `account:${caller.accountId}` : `address:${caller.addressHash}`;
  const requestHash = sha256(JSON.stringify(input));

  // A finished retry is answered before anything is fetched again.
  if (idempotencyKey !== undefined) {
    const done = await idempotencyRepo(s.db).peek(scope, idempotencyKey, now);
    if (done && done.request_hash === requestHash && done.status !== null && done.body !== null) {
      return { status: done.status, json: unseal(s.secret, done.body), replayed: true };
    }
  }

  const passwordHash = input.password !== undefined ? await hashPassword(input.password) : null;
  const accountId = caller.accountId ?? newId();
  const fetched = await fetchFromElsewhere(s, input, accountId);

  let answer: Answer;
  try {
    answer = await s.db.transaction(async (tx) => {
      if (idempotencyKey !== undefined) {
        const first = await idempotencyRepo(tx).reserve(scope, idempotencyKey, requestHash, now);
        if (first) {
          if (first.request_hash !== requestHash) {
            throw invalid('Idempotency-Key', 'This Idempotency-Key was already used with a different request body.');
          }
          if (first.status !== null && first.body !== null)
            return { status: first.status, json: unseal(s.secret, first.body), replayed: true };
        }
      }

      const answer = await createInTransaction(s, tx, caller, input, { accountId, passwordHash, now, ...fetched });
      if (idempotencyKey !== undefined) {
        await idempotencyRepo(tx).complete(scope, idempotencyKey, answer.status, seal(s.secret, answer.json));
      }
      return answer;
    });
  } catch (err) {
    await discardImages(s, fetched.avatar ? [fetched.avatar] : []);
    throw await uniqueViolationToError(s, err, input.username, caller.accountId);
  }
  if (answer.replayed) await discardImages(s, fetched.avatar ? [fetched.avatar] : []);
  else await s.publisher.publishSoon(input.username);
  return answer;
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
async function fetchFromElsewhere(s: Services, input: CreatePageInput, accountId: string): Promise<Fetched> {
  let importedBlocks: AgentBlockInput[] = [];
  if (input.importFromUrl !== undefined) {
    const links = await importLinks(s, input.importFromUrl, 'importFromUrl');
    const sent = input.page?.blocks?.length ?? 0;
    if (sent + links.length > MAX_BLOCKS) {
      throw invalid(
        'importFromUrl',
        `That page has ${links.length} links; with the ${sent} blocks sent the page would pass ${MAX_BLOCKS} blocks.`,
      );
    }
    importedBlocks = links.map((l) => parseOrThrow(AgentBlock, { type: 'link', label: l.label, url: l.url }));
  }
  const avatar =
    input.avatarUrl !== undefined
      ? (await storeImageFromUrl(s, accountId, 'avatar', input.avatarUrl, 'avatarUrl')).key
      : null;
  return { importedBlocks, avatar };
}

async function createInTransaction(
  s: Services,
  tx: Queryable,
  caller: Caller,
  input: CreatePageInput,
  prepared: Fetched & { accountId: string; passwordHash: string | null; now: Date },
): Promise<Answer> {
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
  const theme = { ...profile.theme, ...page.theme };
  const row = await insertPage(tx, {
    accountId,
    username: input.username,
    byProgram: true,
    isPublished: input.publish ?? true,
    createdBy: caller.userAgent,
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
      theme,
    },
    blocks: normalizeBlocks([...(page.blocks ?? []), ...prepared.importedBlocks]),
    now,
  });

  const body: Record<string, unknown> = {
    account: {
      id: accountId,
      provisional: isNewAccount ? input.email === undefined : await isProvisional(tx, accountId),
    },
    page: presentPage(s.config, row),
  };
  if (isNewAccount) {
    const key = await issueApiKey(tx, {
      accountId,
      label: 'Created with the account',
      createdBy: caller.userAgent,
      now,
    });
    body.apiKey = key.apiKey;
    if (input.email === undefined) {
      const claim = await issueClaimLink(s, tx, accountId, now);
      body.claimUrl = claim.claimUrl;
      body.claimExpiresAt = claim.expiresAt;
    }
  }
  return { status: 201, json: JSON.stringify(body), replayed: false };
}

/** POST /api/profiles: another subdomain on the account, program-made when created with a key. */
export async function createProfile(
  s: Services,
  caller: { accountId: string; userAgent: string; byProgram: boolean },
  input: { username: string; templateId?: TemplateId },
): Promise<PageRow> {
  const now = s.now();
  let row: PageRow;
  try {
    row = await s.db.transaction(async (tx) => {
      if (caller.byProgram) await ensureProgramSlot(tx, caller.accountId);
      const account = await accountsRepo(tx).find(caller.accountId);
      const profile = defaultProfile(input.username, account?.locale ?? 'en');
      return insertPage(tx, {
        accountId: caller.accountId,
        username: input.username,
        byProgram: caller.byProgram,
        isPublished: true,
        createdBy: caller.userAgent,
        profile: { ...profile, templateId: input.templateId ?? profile.templateId },
        blocks: [],
        now,
      });
    });
  } catch (err) {
    throw await uniqueViolationToError(s, err, input.username, caller.accountId);
  }
  await s.publisher.publishSoon(row.username);
  return row;
}

async function ensureProgramSlot(tx: Queryable, accountId: string) {
  // Serialises page creation per account so two concurrent requests cannot both take the last slot.
  await tx.query('SELECT id FROM accounts WHERE id = $1 FOR UPDATE', [accountId]);
  if ((await pagesRepo(tx).countProgramMade(accountId)) >= PROGRAM_PAGE_LIMIT) throw new AppError('limit_reached');
}

async function isProvisional(tx: Queryable, accountId: string): Promise<boolean> {
  const account = await accountsRepo(tx).find(accountId);
  return account?.email === null;
}

async function insertPage(
  tx: Queryable,
  p: {
    accountId: string;
    username: string;
    byProgram: boolean;
    isPublished: boolean;
    createdBy: string;
    profile: Profile;
    blocks: Block[];
    now: Date;
  },
): Promise<PageRow> {
  const taken = await namesRepo(tx).taken([p.username], p.accountId);
  if (taken.has(p.username)) throw await usernameTaken(tx, p.username, p.accountId);
  await namesRepo(tx).unpark(p.username);
  await publishQueueRepo(tx).enqueue(p.username, p.now);
  return pagesRepo(tx).insert({ id: newId(), ...p });
}

async function usernameTaken(db: Queryable, username: string, accountId: string | null) {
  return new AppError('username_taken', {
    field: 'username',
    suggestions: await suggestFreeNames(db, username, accountId),
  });
}

/** A unique index that a concurrent request won: the same answer the checks give when they see it first. */
async function uniqueViolationToError(
  s: Services,
  err: unknown,
  username: string,
  accountId: string | null,
): Promise<unknown> {
  const { code, constraint } = sqlState(err);
  if (code !== UNIQUE_VIOLATION) return err;
  if (constraint === 'pages_username_key' || constraint === 'parked_names_pkey')
    return usernameTaken(s.db, username, accountId);
  if (constraint === 'accounts_email_key') return new AppError('email_taken', { field: 'email' });
  return err;
}

function invalid(field: string, hint: string): AppError {
  return new AppError('invalid_fields', { field, detail: field, hint });
}
