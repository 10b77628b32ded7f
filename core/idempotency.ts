/**
 * Idempotency keys, one wrapper for every edge: a retry with the same key and body within 24
 * hours replays the first answer byte for byte, and concurrent requests with one key create
 * once. The key is reserved inside the command's own transaction, so a concurrent retry waits
 * for it and then replays what committed. Answers are kept sealed with the server secret.
 */
import { idempotencyRepo } from '../platform/store/idempotency.js';
import type { Caller } from './caller.js';
import { AppError } from './errors.js';
import { IDEMPOTENCY_HOURS } from './rules/idempotency.js';
import { hashAddress, seal, sha256, unseal } from './secrets.js';
import type { Services } from './services.js';
import type { Transaction } from './transaction.js';

export interface Answer {
  status: number;
  /** The serialised JSON body: what a retry replays. */
  json: string;
  /** True when this answer is a replay and nothing was done. */
  replayed: boolean;
}

export interface OnceRequest {
  /** Whose keys these are: `account:<id>`, or `address:<hash>` for callers without a key (see idempotencyScope). */
  scope: string;
  /** The client's Idempotency-Key; undefined runs the command as it is. */
  key: string | undefined;
  /** The request as parsed: a retry must send the same. */
  body: unknown;
}

/**
 * Keys are kept per caller: the key's account, or for a caller without one its hashed address
 * and program (User-Agent), so two programs behind one address never meet in one scope.
 */
export function idempotencyScope(s: Services, caller: Caller): string {
  if (caller.accountId) return accountScope(caller.accountId);
  return `address:${hashAddress(s.secret, caller.address)}:${sha256(caller.userAgent).slice(0, 16)}`;
}

/** The scope of an account's keys (removed with the account). */
export function accountScope(accountId: string): string {
  return `account:${accountId}`;
}

/** Thrown inside the command's transaction to abandon it for an answer already committed. */
class Replay {
  constructor(readonly answer: Answer) {}
}

/**
 * Runs `command` once per key: it is handed the transaction to do its writes in, and `present`
 * turns its result into the answer that is stored and replayed.
 */
export async function answerOnce<R>(
  s: Services,
  request: OnceRequest,
  command: (transaction: Transaction<R>) => Promise<R>,
  present: (result: R) => { status: number; body: unknown },
): Promise<Answer> {
  const answer = (result: R): Answer => {
    const { status, body } = present(result);
    return { status, json: JSON.stringify(body), replayed: false };
  };
  const { key, scope } = request;
  if (key === undefined) return answer(await command((work) => s.db.transaction(work)));

  const now = s.now();
  const requestHash = sha256(JSON.stringify(request.body));
  const replay = (status: number, body: string): Answer => ({ status, json: unseal(s.secret, body), replayed: true });
  // A finished retry is answered before the command does anything (fetches included).
  const done = await idempotencyRepo(s.db, IDEMPOTENCY_HOURS).peek(scope, key, now);
  if (done && done.requestHash === requestHash && done.status !== null && done.body !== null) {
    return replay(done.status, done.body);
  }

  let stored: Answer | undefined;
  try {
    await command((work) =>
      s.db.transaction(async (tx) => {
        const first = await idempotencyRepo(tx, IDEMPOTENCY_HOURS).reserve(scope, key, requestHash, now);
        if (first) {
          if (first.requestHash !== requestHash) {
            throw new AppError('invalid_fields', {
              field: 'Idempotency-Key',
              detail: 'Idempotency-Key',
              hint: 'This Idempotency-Key was already used with a different request body.',
            });
          }
          if (first.status !== null && first.body !== null) throw new Replay(replay(first.status, first.body));
        }
        const result = await work(tx);
        stored = answer(result);
        await idempotencyRepo(tx, IDEMPOTENCY_HOURS).complete(scope, key, stored.status, seal(s.secret, stored.json));
        return result;
      }),
    );
  } catch (err) {
    if (err instanceof Replay) return err.answer;
    throw err;
  }
  return stored!;
}
