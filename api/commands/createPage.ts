/**
 * Creating pages: the agent's one-call onboarding (account + page + key + claim link) and
 * another subdomain on an existing account. Routes and MCP tools call these; nothing else
 * inserts pages.
 */
import { accountsRepo } from '../../store/accounts.js';
import { type Queryable, sqlState, UNIQUE_VIOLATION } from '../../store/db.js';
import { idempotencyRepo } from '../../store/idempotency.js';
import { type Block, defaultProfile, type Profile } from '../../store/model.js';
import { namesRepo } from '../../store/names.js';
import { type PageRow, pagesRepo } from '../../store/pages.js';
import { publishQueueRepo } from '../../store/publishQueue.js';
import type { CreatePageInput } from '../agent/schema.js';
import { hashPassword, newId, seal, sha256, unseal } from '../auth/secrets.js';
import { ApiError } from '../errors.js';
import { blockListProblems, normalizeBlocks } from '../profiles/blocks.js';
import { presentPage } from '../profiles/presenter.js';
import type { TemplateId } from '../schemas/fields.js';
import type { Services } from '../services.js';
import { suggestFreeNames } from '../username/suggest.js';
import { issueApiKey } from './apiKeys.js';
import { issueClaimLink } from './claimLinks.js';

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
export function createRequestProblems(input: CreatePageInput, accountId: string | null): ApiError[] {
  const problems: ApiError[] = [];
  if (accountId !== null && (input.email !== undefined || input.password !== undefined)) {
    const field = input.email !== undefined ? 'email' : 'password';
    problems.push(invalid(field, "With a key the page is added to the key's account; leave out email and password."));
  } else if ((input.email === undefined) !== (input.password === undefined)) {
    const field = input.email === undefined ? 'email' : 'password';
    problems.push(invalid(field, 'Send email and password together, or neither for a provisional account.'));
  }
  for (const field of ['avatarUrl', 'importFromUrl'] as const) {
    if (input[field] !== undefined) {
      problems.push(
        invalid(field, `${field} is not available on this server yet; leave it out and set the page up with blocks.`),
      );
    }
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
  const passwordHash = input.password !== undefined ? await hashPassword(input.password) : null;
  const now = s.now();
  const scope = caller.accountId ? `account:${caller.accountId}` : `address:${caller.addressHash}`;

  let answer: Answer;
  try {
    answer = await s.db.transaction(async (tx) => {
      if (idempotencyKey !== undefined) {
        const requestHash = sha256(JSON.stringify(input));
        const first = await idempotencyRepo(tx).reserve(scope, idempotencyKey, requestHash, now);
        if (first) {
          if (first.request_hash !== requestHash) {
            throw invalid('Idempotency-Key', 'This Idempotency-Key was already used with a different request body.');
          }
          if (first.status !== null && first.body !== null)
            return { status: first.status, json: unseal(s.secret, first.body), replayed: true };
        }
      }

      const answer = await createInTransaction(s, tx, caller, input, passwordHash, now);
      if (idempotencyKey !== undefined) {
        await idempotencyRepo(tx).complete(scope, idempotencyKey, answer.status, seal(s.secret, answer.json));
      }
      return answer;
    });
  } catch (err) {
    throw await uniqueViolationToError(s, err, input.username, caller.accountId);
  }
  if (!answer.replayed) await s.publisher.publishSoon(input.username);
  return answer;
}

async function createInTransaction(
  s: Services,
  tx: Queryable,
  caller: Caller,
  input: CreatePageInput,
  passwordHash: string | null,
  now: Date,
): Promise<Answer> {
  let accountId = caller.accountId;
  const isNewAccount = accountId === null;
  if (accountId !== null) {
    await ensureProgramSlot(tx, accountId);
  } else {
    if (input.email !== undefined && (await accountsRepo(tx).emailTaken(input.email))) {
      throw new ApiError('email_taken', { field: 'email' });
    }
    accountId = newId();
    await accountsRepo(tx).insert({
      id: accountId,
      email: input.email ?? null,
      passwordHash,
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
      avatarFocus: page.avatarFocus ?? null,
      templateId: page.templateId ?? profile.templateId,
      layout: page.layout ?? profile.layout,
      headerAlign: page.headerAlign ?? null,
      utm: page.utm ?? false,
      theme,
    },
    blocks: normalizeBlocks(page.blocks ?? []),
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
  if ((await pagesRepo(tx).countProgramMade(accountId)) >= PROGRAM_PAGE_LIMIT) throw new ApiError('limit_reached');
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
  return new ApiError('username_taken', {
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
  if (constraint === 'accounts_email_key') return new ApiError('email_taken', { field: 'email' });
  return err;
}

function invalid(field: string, hint: string): ApiError {
  return new ApiError('invalid_fields', { field, detail: field, hint });
}
