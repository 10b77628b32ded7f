/** Factories: each test makes its own accounts and pages, with names no other test uses. */
import { randomBytes } from 'node:crypto';
import { api } from './client.js';
import { app } from './hooks.js';

/** A valid username no other test will pick. */
export function uniqueName(prefix = 'user'): string {
  return `${prefix}-${randomBytes(5).toString('hex')}`;
}

/** An Idempotency-Key as a client should make one: random, long enough for a caller without a key. */
export function idempotencyKey(prefix = 'retry'): string {
  return `${prefix}-${randomBytes(12).toString('hex')}`;
}

export function buildLinkBlock(overrides: Record<string, unknown> = {}) {
  return { type: 'link', label: 'My site', url: 'https://example.com/', ...overrides };
}

/** A stored block (id, order, visible required) of any type. */
export function buildStoredBlock(type = 'link', overrides: Record<string, unknown> = {}) {
  const bodies: Record<string, Record<string, unknown>> = {
    link: { label: 'My site', url: 'https://example.com/' },
    social: { platform: 'instagram', url: 'https://instagram.com/someone' },
    socialRow: { items: [{ platform: 'github', url: 'https://github.com/someone' }] },
    embed: { provider: 'youtube', url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' },
    messenger: { platform: 'telegram', handle: 'someone' },
    text: { content: 'Hello there', variant: 'paragraph' },
  };
  return { id: `b-${randomBytes(4).toString('hex')}`, order: 0, visible: true, type, ...bodies[type], ...overrides };
}

export function buildCreateRequest(overrides: Record<string, unknown> = {}) {
  return {
    username: uniqueName(),
    page: { displayName: 'Test Person', bio: 'Testing pages', blocks: [buildLinkBlock()] },
    ...overrides,
  };
}

/**
 * A provisional account with one page, created the way an agent does it, its pictures drawn (as
 * they are for a page published a moment ago: they are drawn after the page is served).
 */
export async function createAgentAccount(overrides: Record<string, unknown> = {}) {
  const res = await api.post('/api/agent/pages', buildCreateRequest(overrides));
  if (res.status !== 201) throw new Error(`factory: create failed ${res.status} ${res.text}`);
  await app().services.publisher.settled();
  return {
    key: res.body.apiKey as string,
    accountId: res.body.account.id as string,
    page: res.body.page,
    claimUrl: res.body.claimUrl as string,
    body: res.body,
  };
}
