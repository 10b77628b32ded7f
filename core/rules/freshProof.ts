/**
 * Fresh proof before the irreversible: deleting the account, a new password, a new API key, a
 * new webhook and letting an app in need the session's person to have proved who they are (a
 * log-in, its second step, a passkey, or a proof asked again) within this window.
 */

/** Ten minutes: long enough to finish what a log-in was for, short enough that a forgotten or stolen session cannot. */
export const FRESH_PROOF_MS = 10 * 60_000;

/** Whether a proof made at `provedAt` still counts at `now` (a clock set back counts as fresh). */
export function proofIsFresh(provedAt: Date, now: Date): boolean {
  return now.getTime() - provedAt.getTime() <= FRESH_PROOF_MS;
}
