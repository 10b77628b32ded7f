/** The domain-check job's work: every custom domain whose DNS check is due (pending ones with backoff, the others each night). */
import { checkDueDomains } from '../core/commands/customDomains.js';
import type { Services } from '../core/services.js';
import type { DrainResult } from '../platform/queue/outbox.js';

export function checkDomains(s: Services): Promise<DrainResult> {
  return checkDueDomains(s);
}
