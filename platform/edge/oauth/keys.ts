/**
 * The authorization server's keys, derived from the service's secret: the cookie keys and an
 * Ed25519 signing key (the library wants one; no ID token is issued, as no `openid` scope is
 * offered). The same secret gives the same keys in every process, so no key is stored.
 */
import { createHmac, createPrivateKey, type JsonWebKey } from 'node:crypto';

const derive = (secret: string, purpose: string) => createHmac('sha256', secret).update(`oauth:${purpose}`).digest();

export function cookieKeys(secret: string): string[] {
  return [derive(secret, 'cookies').toString('base64url')];
}

/** An Ed25519 private JWK whose seed is derived from the secret. */
export function signingJwk(secret: string): JsonWebKey {
  // PKCS #8 for Ed25519 is a fixed 16-byte prefix followed by the 32-byte seed.
  const der = Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), derive(secret, 'signing')]);
  const jwk = createPrivateKey({ key: der, format: 'der', type: 'pkcs8' }).export({ format: 'jwk' });
  return { ...jwk, use: 'sig', alg: 'EdDSA', kid: derive(secret, 'kid').toString('base64url').slice(0, 16) };
}
