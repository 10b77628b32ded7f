/**
 * Example values for openapi.json: one page, its blocks, its account, its webhook… as the API
 * answers them. The routes name these beside their declarations (RouteDef `example`), and
 * test/api/openapiExamples.test.ts checks each example against the schema it illustrates.
 */

export const T0 = '2026-11-20T09:30:00.000Z';
export const T1 = '2026-11-26T14:05:12.000Z';
const PAGE_ID = '5c1f0a9e3b7d2e4f6a8b0c1d';
const ACCOUNT_ID = '8e2d4c6b0a1f3e5d7c9b2a40';

export const exampleBlocks = [
  {
    id: 'b-site',
    order: 0,
    visible: true,
    showFrom: null,
    showUntil: null,
    type: 'link',
    label: 'My shop',
    url: 'https://shop.example.com/',
    note: 'Prints and postcards',
    image: null,
    imageFocus: null,
    badge: 'New',
    featured: true,
    adult: false,
    pulse: false,
    path: 'shop',
    apps: null,
    linkStatus: { state: 'ok', checkedAt: T1, since: null, status: 200, detail: null },
  },
  {
    id: 'b-social',
    order: 1,
    visible: true,
    showFrom: null,
    showUntil: null,
    type: 'socialRow',
    items: [
      { platform: 'instagram', url: 'https://instagram.com/ada.prints' },
      { platform: 'github', url: 'https://github.com/ada' },
    ],
  },
  {
    id: 'b-hello',
    order: 2,
    visible: true,
    showFrom: null,
    showUntil: null,
    type: 'text',
    content: 'New prints every Friday.',
    variant: 'paragraph',
  },
];

/** The blocks as PATCH and PUT send them (what a read answered, without what reads add). */
export const exampleBlockInputs = exampleBlocks.map(({ linkStatus: _, ...block }) => block);

export const examplePage = {
  id: PAGE_ID,
  username: 'ada',
  url: 'https://ada.example.page/',
  markdownUrl: 'https://ada.example.page/index.md',
  isPublished: true,
  publishPending: false,
  banned: false,
  version: 4,
  banReason: null,
  nextChangeAt: null,
  createdAt: T0,
  updatedAt: T1,
  createdBy: 'my-agent/1.2',
  displayName: 'Ada Lovelace',
  bio: 'Prints, postcards and the odd program.',
  avatar: null,
  avatarFocus: null,
  templateId: 'editorial',
  layout: 'list',
  headerAlign: null,
  pageLocale: 'en',
  utm: false,
  adult: false,
  branding: true,
  theme: { accent: '#0a7f5a', scheme: 'fixed', backgroundImage: null, backgroundFocus: null, overlay: 0.3 },
  blocks: exampleBlocks,
};

export const exampleAccount = {
  id: ACCOUNT_ID,
  email: null,
  locale: 'en',
  timeZone: 'Europe/London',
  createdAt: T0,
  provisional: true,
  emailVerified: false,
  createdBy: 'my-agent/1.2',
};

export const examplePageSummary = {
  id: PAGE_ID,
  username: 'ada',
  url: examplePage.url,
  markdownUrl: examplePage.markdownUrl,
  isPublished: true,
  publishPending: false,
  banned: false,
  templateId: 'editorial',
  blockCount: 3,
  updatedAt: T1,
};

export const exampleCreateRequest = {
  username: 'ada',
  page: {
    displayName: 'Ada Lovelace',
    bio: 'Prints, postcards and the odd program.',
    blocks: [{ type: 'link', label: 'My shop', url: 'https://shop.example.com/' }],
  },
  publish: true,
};

export const exampleCreated = {
  account: { id: ACCOUNT_ID, provisional: true },
  page: examplePage,
  apiKey: 'svc_sk_3q2-7wE9xYz1AbCdEfGhIjKlMnOpQrStUvWxYz01234',
  claimUrl: 'https://example.page/claim/Zb3k9QwErTyUiOpAsDfGhJkLzXcVbNm1234567890ab',
  claimExpiresAt: '2026-12-03T14:05:12.000Z',
};

export const examplePut = {
  displayName: 'Ada Lovelace',
  bio: 'Prints, postcards and the odd program.',
  templateId: 'editorial',
  layout: 'list',
  pageLocale: 'en',
  isPublished: true,
  utm: false,
  theme: { accent: '#0a7f5a' },
  blocks: exampleBlockInputs,
};

const versionEntry = {
  version: 4,
  createdAt: T1,
  changedBy: 'key "my agent"',
  userAgent: 'my-agent/1.2',
  summary: 'Changed bio',
  author: 'key:1b3d5f7a9c0e2d4f6a8b0c2e',
};

export const exampleVersions = {
  current: 4,
  versions: [versionEntry, { ...versionEntry, version: 3, createdAt: T0, summary: 'Added 1 block' }],
};

const {
  id: _id,
  username: _u,
  url: _url,
  markdownUrl: _md,
  publishPending: _pp,
  banned: _b,
  version: _v,
  ...pageFields
} = examplePage;
const { banReason: _br, nextChangeAt: _nc, createdAt: _ca, updatedAt: _ua, createdBy: _cb, ...editable } = pageFields;

export const exampleVersion = { ...versionEntry, page: editable };

const daily = { date: '2026-11-26', views: 42, uniques: 31, taps: 12, markdownReads: 3 };

export const exampleStats = {
  from: '2026-11-20',
  to: '2026-11-26',
  timeZone: 'Europe/London',
  views: 180,
  uniques: 121,
  taps: 57,
  markdownReads: {
    total: 9,
    readers: [
      { name: 'ChatGPT', reads: 5 },
      { name: 'People', reads: 4 },
    ],
  },
  daily: [daily],
  blocks: [{ id: 'b-site', taps: 50, ctr: 0.2778 }],
  referrers: [
    { name: 'instagram.com', views: 120 },
    { name: 'direct', views: 60 },
  ],
  countries: [{ name: 'GB', views: 150 }],
  devices: [{ name: 'mobile', views: 140 }],
  browsers: [{ name: 'Safari', views: 90 }],
  os: [{ name: 'iOS', views: 88 }],
  campaigns: [],
};

export const exampleStatsCsv = 'date,views,uniques,taps,markdown_reads\n2026-11-26,42,31,12,3\n';

export const exampleWebhook = {
  id: '3a9c1e7f5b2d4a6c8e0f1b3d',
  url: 'https://hooks.example.com/linkpage',
  events: ['page.published', 'links.broken'],
  description: 'Tell the shop',
  payload: 'standard',
  enabled: true,
  disabledAt: null,
  disabledReason: null,
  failingSince: null,
  previousSecretUntil: null,
  createdAt: T0,
  createdBy: 'my-agent/1.2',
};

export const exampleWebhookWithSecret = {
  ...exampleWebhook,
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
};

export const exampleDelivery = {
  id: '7d5b3f1a9c8e6d4b2a0f1e3c',
  eventId: 'evt_6f1c2a9b8e7d6c5b4a39281f',
  type: 'page.published',
  state: 'delivered',
  attempts: 1,
  createdAt: T1,
  lastAttemptAt: T1,
  nextAttemptAt: null,
  lastStatus: 200,
  lastError: null,
  deliveredAt: T1,
};

const apiKey = {
  id: '1b3d5f7a9c0e2d4f6a8b0c2e',
  label: 'my agent',
  hint: 'svc_sk_3q…1234',
  createdAt: T0,
  lastUsedAt: T1,
  createdBy: 'Mozilla/5.0 (X11; Linux x86_64)',
  role: 'editor',
  pages: null,
};

export const exampleApiKeys = { keys: [apiKey] };
export const exampleApiKeyCreated = { ...apiKey, lastUsedAt: null, key: exampleCreated.apiKey };

export const exampleDomain = {
  domain: 'links.example.com',
  state: 'pending',
  serving: false,
  servingUntil: null,
  dns: [
    {
      type: 'TXT',
      name: '_linkpage.links.example.com',
      value: 'linkpage-verify=3q2Sx0aW1n8oQyJ8l4Kp0c7yZb9fU2dWcV5tE6rA1hM',
    },
    { type: 'CNAME', name: 'links.example.com', value: 'ada.linkpage.example' },
  ],
  attachedAt: T0,
  verifiedAt: null,
  failingSince: null,
  checkedAt: T0,
  nextCheckAt: '2026-11-20T09:31:00.000Z',
  found: { txt: [], cname: [], addresses: [] },
  problem: 'txt_missing',
};

export const exampleActiveDomain = {
  ...exampleDomain,
  state: 'active',
  serving: true,
  verifiedAt: T0,
  nextCheckAt: '2026-11-21T09:30:00.000Z',
  found: { txt: [exampleDomain.dns[0].value], cname: ['ada.linkpage.example'], addresses: [] },
  problem: null,
};
