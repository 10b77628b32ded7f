/**
 * Webhook signatures: `Webhook-Signature: t=<unix seconds>,v1=<hex>` where the hex is
 * HMAC-SHA256 over `<t>.<body>` with the endpoint's secret. While a rolled secret's grace runs,
 * one `v1=` per secret is sent, the newest first; a receiver accepts the delivery when any
 * matches one of its secrets and `t` is recent.
 */
import { createHmac, randomBytes } from 'node:crypto';

/** `whsec_` + 43 base64url characters (32 random bytes). */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

export function signature(secret: string, t: number, body: string): string {
  return createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
}

/** The header's value for a delivery sent at `t`, signed with every secret given. */
export function signatureHeader(secrets: readonly string[], t: number, body: string): string {
  return [`t=${t}`, ...secrets.map((secret) => `v1=${signature(secret, t, body)}`)].join(',');
}
