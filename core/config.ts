/**
 * Configuration, read from the environment once at start (every variable: README.md, docs/deploy.md).
 * Nothing else in the code reads process.env: the parsed Config is passed in.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as v from 'valibot';
import type { CdnConfig } from '../platform/cdn/index.js';
import { parseAllowEntry } from '../platform/outbound/addresses.js';
import { isNetworkName, NETWORK_NAMES, type NetworkName } from '../platform/outbound/networks.js';
import { CDN_ENV, cdnConfig } from './configCdn.js';
import { DOMAIN_ENV, type DomainSettings, domainSettings } from './configDomains.js';
import { ConfigError, commaList, httpBase } from './configLists.js';
import { missingSharedSettings } from './configRoles.js';
import { BRANDINGS, type Branding } from './rules/branding.js';
import { DEFAULT_PASSWORD_COST } from './secrets.js';

const flag = v.pipe(
  v.picklist(['', '0', '1', 'true', 'false', 'yes', 'no'], 'must be 1/0, true/false or yes/no'),
  v.transform((s) => s === '1' || s === 'true' || s === 'yes'),
);

/**
 * TRUST_PROXY: how many proxies in front append to X-Forwarded-For. The client address is the
 * entry that many places from the right (1: the rightmost, the one our proxy appended); entries
 * further left are the client's to forge. 1/true/yes are one hop, 0/false/no (or unset) none.
 */
const proxyHops = v.pipe(
  v.string(),
  v.regex(/^(|[0-9]|[1-9][0-9]|true|false|yes|no)$/, 'must be a number of proxy hops (0-99), or true/false, yes/no'),
  v.transform((s) => (s === 'true' || s === 'yes' ? 1 : s === '' || s === 'false' || s === 'no' ? 0 : Number(s))),
);

const EnvSchema = v.object({
  PORT: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,5}$/, 'must be a port number'),
      v.transform(Number),
      v.maxValue(65535, 'must be a port number'),
    ),
    '3000',
  ),
  BASE_URL: v.optional(httpBase),
  PAGE_DOMAIN: v.optional(
    v.pipe(v.string(), v.regex(/^[a-z0-9.-]+(:\d{1,5})?$/, 'must be a host name, optionally with :port')),
  ),
  DATA_DIR: v.optional(v.pipe(v.string(), v.minLength(1, 'must not be empty')), './data'),
  DATABASE_URL: v.optional(
    v.pipe(v.string(), v.regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')),
  ),
  STORAGE: v.optional(v.picklist(['fs', 's3'], 'must be fs or s3'), 'fs'),
  S3_BUCKET: v.optional(v.string()),
  S3_ENDPOINT: v.optional(httpBase),
  S3_REGION: v.optional(v.string(), 'us-east-1'),
  S3_FORCE_PATH_STYLE: v.optional(flag, ''),
  MEDIA_URL: v.optional(httpBase),
  BRANDING: v.optional(v.picklist(BRANDINGS, 'must be always, owner or never'), 'always'),
  ROLE: v.optional(v.picklist(['all', 'api', 'router', 'worker'], 'must be all, api, router or worker'), 'all'),
  TRUST_PROXY: v.optional(proxyHops, ''),
  SECRET: v.optional(v.pipe(v.string(), v.minLength(32, 'must be at least 32 characters'))),
  IMPORT_BASE_URLS: v.optional(
    v.pipe(
      v.string(),
      v.check(
        (s) => s.split(',').every((pair) => /^[a-z]+=https?:\/\/[^\s,]+$/.test(pair.trim())),
        'must be comma-separated network=http(s)-URL pairs',
      ),
      v.check(
        (s) => s.split(',').every((pair) => isNetworkName(pair.trim().split('=')[0])),
        `names a network other than ${NETWORK_NAMES.join(', ')}`,
      ),
      v.transform((s) =>
        Object.fromEntries(
          s.split(',').map((pair) => {
            const [name, ...url] = pair.trim().split('=');
            return [name, url.join('=').replace(/\/+$/, '')];
          }),
        ),
      ),
    ),
  ),
  METRICS_PORT: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^(\d{1,3}(\.\d{1,3}){3}:)?\d{1,5}$/, 'must be a port number, or an IPv4 address:port'),
      v.transform((s) => {
        const [host, port] = s.includes(':') ? s.split(':') : ['127.0.0.1', s];
        return { host, port: Number(port) };
      }),
      v.check(({ port }) => port <= 65535, 'must be a port number, or an IPv4 address:port'),
    ),
  ),
  METRICS_TOKEN: v.optional(v.pipe(v.string(), v.minLength(16, 'must be at least 16 characters'))),
  ...CDN_ENV,
  OUTBOUND_ALLOW: v.optional(
    v.pipe(
      commaList,
      v.check(
        (entries) => entries.every((entry) => parseAllowEntry(entry) !== null),
        'must be comma-separated host:port entries',
      ),
    ),
  ),
  SMTP_URL: v.optional(
    v.pipe(
      v.string(),
      v.check((s) => {
        try {
          const u = new URL(s);
          return (u.protocol === 'smtp:' || u.protocol === 'smtps:') && u.hostname !== '';
        } catch {
          return false;
        }
      }, 'must be an smtp:// or smtps:// URL'),
    ),
  ),
  MAIL_FROM: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^([^<>\r\n]*<[^\s<>@]+@[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+)$/, 'must be an address, or "Name <address>"'),
    ),
  ),
  PASSWORD_COST: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^1[0-7]$/, 'must be a whole number from 10 to 17 (scrypt N is 2 to this power)'),
      v.transform(Number),
    ),
    String(DEFAULT_PASSWORD_COST),
  ),
  /** `development` (npm run dev) may show mail links in the terminal; anything else is production. */
  NODE_ENV: v.optional(v.string(), 'production'),
  LOG_LEVEL: v.optional(
    v.picklist(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], 'must be a pino log level'),
    'info',
  ),
  ...DOMAIN_ENV,
});

/** Every variable the configuration reads (ops/deploy/linkpage.env.example lists the same). */
export const CONFIG_VARIABLES: readonly string[] = Object.keys(EnvSchema.entries);

export interface Config {
  port: number;
  /** Apex address of the API and dashboard, without a trailing slash. */
  baseUrl: string;
  /** Host (and port) under which each page is `<name>.<pageDomain>`. */
  pageDomain: string;
  /** `http:` or `https:`, taken from baseUrl, used for page URLs. */
  pageScheme: string;
  dataDir: string;
  databaseUrl: string | undefined;
  storage: 'fs' | 's3';
  s3: { bucket: string | undefined; endpoint: string | undefined; region: string; forcePathStyle: boolean };
  mediaUrl: string;
  role: 'all' | 'api' | 'router' | 'worker';
  /** Whether pages show the service's brand: always, never, or as each owner chooses (core/rules/branding.ts). */
  branding: Branding;
  /** Whether X-Forwarded-For is read at all (proxyHops > 0). */
  trustProxy: boolean;
  /** How many trusted proxies append to X-Forwarded-For: the client is that many entries from the right. */
  proxyHops: number;
  /** Secret for hashing addresses and encrypting replayed answers; see loadSecret. */
  secret: string | undefined;
  logLevel: string;
  /**
   * Where `/metrics` is served: on its own port (127.0.0.1 unless an address is given), and/or
   * on the service's port to requests bearing the token. Neither by default.
   */
  metrics: { listen: { host: string; port: number } | undefined; token: string | undefined };
  /** Base URLs replacing a social network's default (profile imports). */
  importBaseUrls: Partial<Record<NetworkName, string>>;
  /** The CDN in front of the page hosts, which publishing purges (cdn/). */
  cdn: CdnConfig;
  /** `host:port` receivers inside a private network that outbound fetches may reach (webhooks); none by default. */
  outboundAllow: string[];
  /**
   * Outgoing e-mail (mail/): through the SMTP server at `smtpUrl`, or, without one, written as
   * `.eml` files under DATA_DIR/mail/. `from` is the sender: the service's name and address.
   * `logLinks`: whether a written message's link is also logged, which only a developer's
   * terminal gets (NODE_ENV=development with the output on a terminal): whoever reads a log
   * could otherwise take over the account the link is for.
   */
  mail: { smtpUrl: string | undefined; from: string; logLinks: boolean };
  /**
   * scrypt's cost for passwords set from now on: N = 2^passwordCost (PASSWORD_COST, 10–17,
   * default 15). Stored hashes keep their own N and still verify after a change.
   */
  passwordCost: number;
  /** Custom domains: DNS_SERVERS, DOMAIN_VERIFY_DAYS, DOMAIN_GRACE_DAYS (core/configDomains.ts). */
  domains: DomainSettings;
}

export { ConfigError };

/**
 * Parses the environment; throws a ConfigError whose message is one line naming the variable.
 * `terminal`: whether the process writes to a terminal (its standard output is a TTY).
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, terminal = process.stdout.isTTY === true): Config {
  const defined = Object.fromEntries(Object.entries(env).filter(([k, val]) => k in EnvSchema.entries && val !== ''));
  const parsed = v.safeParse(EnvSchema, defined);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const name = issue.path?.[0]?.key ?? 'environment';
    // SMTP_URL may hold a password: its value is never repeated.
    const got = name === 'SMTP_URL' ? '' : ` (got ${JSON.stringify(issue.input)})`;
    throw new ConfigError(`${String(name)}: ${issue.message}${got}`);
  }
  const e = parsed.output;
  const unshared = missingSharedSettings(e);
  if (unshared.length > 0) throw new ConfigError(unshared.join('\n'));
  const baseUrl = e.BASE_URL ?? `http://localhost:${e.PORT}`;
  if (e.STORAGE === 's3' && !e.S3_BUCKET) throw new ConfigError('S3_BUCKET: must be set when STORAGE=s3');
  return {
    port: e.PORT,
    baseUrl,
    pageDomain: e.PAGE_DOMAIN ?? `localhost:${e.PORT}`,
    pageScheme: new URL(baseUrl).protocol,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    storage: e.STORAGE,
    s3: { bucket: e.S3_BUCKET, endpoint: e.S3_ENDPOINT, region: e.S3_REGION, forcePathStyle: e.S3_FORCE_PATH_STYLE },
    mediaUrl: e.MEDIA_URL ?? `${baseUrl}/media`,
    role: e.ROLE,
    branding: e.BRANDING,
    trustProxy: e.TRUST_PROXY > 0,
    proxyHops: e.TRUST_PROXY,
    secret: e.SECRET,
    logLevel: e.LOG_LEVEL,
    metrics: { listen: e.METRICS_PORT, token: e.METRICS_TOKEN },
    importBaseUrls: e.IMPORT_BASE_URLS ?? {},
    cdn: cdnConfig(e),
    outboundAllow: e.OUTBOUND_ALLOW ?? [],
    mail: {
      smtpUrl: e.SMTP_URL,
      from: e.MAIL_FROM ?? `linkpage <no-reply@${new URL(baseUrl).hostname}>`,
      logLinks: e.NODE_ENV === 'development' && terminal,
    },
    passwordCost: e.PASSWORD_COST,
    domains: domainSettings(e),
  };
}

/**
 * The configured SECRET, or one generated once and kept in DATA_DIR/secret so that
 * hashed addresses and encrypted replays stay valid across restarts.
 */
export function loadSecret(config: Config): string {
  if (config.secret) return config.secret;
  const file = path.join(config.dataDir, 'secret');
  try {
    return readFileSync(file, 'utf8').trim();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  mkdirSync(config.dataDir, { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
  return secret;
}
