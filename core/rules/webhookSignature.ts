/**
 * Webhook signatures as Standard Webhooks (standardwebhooks.com) define them: the headers
 * `webhook-id`, `webhook-timestamp` (unix seconds) and `webhook-signature: v1,<base64>`, where
 * the base64 is HMAC-SHA256 over `<id>.<timestamp>.<body>` keyed with the bytes the secret's
 * base64 (after `whsec_`) decodes to. While a rolled secret's grace runs, one `v1,` signature
 * per secret is sent, space-separated, the newest first; a receiver accepts the delivery when
 * any matches its secret and the timestamp is recent. Any Standard Webhooks library verifies them.
 */
import { createHmac, randomBytes } from 'node:crypto';

const PREFIX = 'whsec_';

/** `whsec_` + the standard base64 of 32 random bytes (44 characters, one `=`). */
export function newWebhookSecret(): string {
  return `${PREFIX}${randomBytes(32).toString('base64')}`;
}

/**
 * The HMAC key of a secret: its base64 decoded. Secrets made before Standard Webhooks are
 * base64url (43 characters, no padding); node reads both alphabets, so they keep their 32 bytes.
 */
export function webhookKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
}

/** The base64 HMAC-SHA256 of `<id>.<timestamp>.<body>` with the secret's key. */
export function signature(secret: string, id: string, timestamp: number, body: string): string {
  return createHmac('sha256', webhookKey(secret)).update(`${id}.${timestamp}.${body}`).digest('base64');
}

/** The three headers of a delivery with message id `id` sent at `timestamp`, signed with every secret given. */
export function signatureHeaders(
  secrets: readonly string[],
  id: string,
  timestamp: number,
  body: string,
): { 'webhook-id': string; 'webhook-timestamp': string; 'webhook-signature': string } {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((secret) => `v1,${signature(secret, id, timestamp, body)}`).join(' '),
  };
}
