/** The webhook job's work: send what is due, and now and then forget deliveries long over. */
import { type DeliveryRun, deliverDueWebhooks } from '../core/commands/deliverWebhooks.js';
import type { Services } from '../core/services.js';
import { webhookDeliveriesRepo } from '../platform/store/webhookDeliveries.js';

/** Delivered and given-up deliveries are listed this long, then forgotten. */
const KEEP_FINISHED_MS = 30 * 86_400_000;
const FORGET_EVERY_MS = 3_600_000;
let forgotAt = 0;

export async function sendWebhooks(s: Services): Promise<DeliveryRun> {
  const run = await deliverDueWebhooks(s);
  if (Date.now() - forgotAt > FORGET_EVERY_MS) {
    forgotAt = Date.now();
    await webhookDeliveriesRepo(s.db).forgetFinished(new Date(s.now().getTime() - KEEP_FINISHED_MS));
  }
  return run;
}
