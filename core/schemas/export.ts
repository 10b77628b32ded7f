/** GET /api/account/export: everything stored about an account, as one document (core/queries/accountExport.ts). */
import * as v from 'valibot';
import { ROLE_NAMES } from '../rules/roles.js';
import { ProposalDetailOut } from './proposals.js';
import { AccountOut, DeliveryOut, PageOut, VersionEntryOut, WebhookOut } from './responses.js';

const DateTimeOut = v.pipe(v.string(), v.isoTimestamp());
const Int = v.pipe(v.number(), v.integer());

export const ExportOut = v.object({
  exportedAt: DateTimeOut,
  account: AccountOut,
  claimedAt: v.nullable(DateTimeOut),
  emailVerifiedAt: v.nullable(DateTimeOut),
  pages: v.array(PageOut),
  statistics: v.array(
    v.object({
      pageId: v.string(),
      username: v.string(),
      daily: v.array(
        v.object({
          date: v.string(),
          views: Int,
          uniques: Int,
          taps: Int,
          markdownReads: Int,
        }),
      ),
      blockTaps: v.array(v.object({ date: v.string(), blockId: v.string(), taps: Int })),
      breakdowns: v.array(v.object({ date: v.string(), dimension: v.string(), value: v.string(), views: Int })),
    }),
  ),
  webhooks: v.array(
    v.object({
      ...WebhookOut.entries,
      deliveries: v.array(v.object({ ...DeliveryOut.entries, body: v.string() })),
    }),
  ),
  history: v.array(v.object({ pageId: v.string(), versions: v.array(VersionEntryOut) })),
  images: v.array(
    v.object({
      key: v.string(),
      url: v.nullable(v.string()),
      createdAt: DateTimeOut,
      removedAt: v.nullable(DateTimeOut),
    }),
  ),
  sessions: v.array(
    v.object({
      createdAt: DateTimeOut,
      lastSeenAt: v.nullable(DateTimeOut),
      expiresAt: DateTimeOut,
      endedAt: v.nullable(DateTimeOut),
      userAgent: v.string(),
      country: v.nullable(v.string()),
    }),
  ),
  mailLinks: v.array(
    v.object({
      purpose: v.picklist(['password-reset', 'email-confirmation']),
      createdAt: DateTimeOut,
      expiresAt: DateTimeOut,
      usedAt: v.nullable(DateTimeOut),
    }),
  ),
  apiKeys: v.array(
    v.object({
      id: v.string(),
      label: v.string(),
      hint: v.string(),
      createdAt: DateTimeOut,
      createdBy: v.string(),
      lastUsedAt: v.nullable(DateTimeOut),
      revokedAt: v.nullable(DateTimeOut),
      role: v.picklist(ROLE_NAMES),
      pages: v.nullable(v.array(v.string())),
    }),
  ),
  claimLinks: v.array(v.object({ createdAt: DateTimeOut, expiresAt: DateTimeOut, usedAt: v.nullable(DateTimeOut) })),
  parkedNames: v.array(v.object({ username: v.string(), parkedAt: DateTimeOut })),
  /** Every proposal made on the account's pages (those decided more than 90 days ago are forgotten). */
  proposals: v.array(ProposalDetailOut),
});
