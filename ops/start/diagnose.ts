/**
 * What an operator reads when a setting points at something that refuses: one line naming the
 * variable, the cause in words and the fix, never a driver's stack. What a restart cannot fix
 * (an unknown database, role, bucket or host, refused credentials) is a ConfigError (exit
 * status 2, which the units do not restart); what may come back by itself (a server that does
 * not answer yet) a StartupError (exit 1, restarted). Used by the start and by `npm run doctor`.
 */
import { accessSync, constants, mkdirSync, type Stats, statSync } from 'node:fs';
import path from 'node:path';
import { type Config, ConfigError } from '../../core/config.js';
import { StartupError } from '../../core/errors.js';
import { HEALTH_PROBE_KEY, healthProbeKey } from '../../platform/store/layout.js';
import type { ObjectStorage } from '../../platform/store/objects.js';

interface Failure {
  name?: string;
  code?: string;
  message?: string;
  cause?: unknown;
  errors?: unknown[];
}

/** The network or server code of an error, looking into its cause and an AggregateError's parts. */
function codeOf(err: unknown, depth = 0): string | undefined {
  const e = err as Failure | null;
  if (!e || typeof e !== 'object' || depth > 3) return undefined;
  if (typeof e.code === 'string') return e.code;
  for (const inner of [e.cause, ...(e.errors ?? [])]) {
    const code = codeOf(inner, depth + 1);
    if (code) return code;
  }
  return undefined;
}

function firstLine(err: unknown): string {
  const e = err as Failure | null;
  return String(e?.message ?? err).split('\n')[0];
}

/** A bad DATABASE_URL as one line; null when `err` is not about reaching the database. */
export function databaseProblem(err: unknown, url: string): Error | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  const where = `${u.hostname}:${u.port || 5432}`;
  const database = decodeURIComponent(u.pathname.slice(1)) || decodeURIComponent(u.username) || 'postgres';
  const user = decodeURIComponent(u.username) || 'the default user';
  const code = codeOf(err);
  const says = (cause: string, fix: string) => `DATABASE_URL: ${cause}: ${fix}.`;
  switch (code) {
    case 'ECONNREFUSED':
      return new StartupError(
        says(
          `nothing answers at ${where} (connection refused)`,
          'start PostgreSQL there, or correct the host and port in DATABASE_URL',
        ),
      );
    case 'ENOTFOUND':
      return new ConfigError(says(`the host "${u.hostname}" is unknown (DNS)`, 'correct the host in DATABASE_URL'));
    case 'EAI_AGAIN':
      return new StartupError(
        says(
          `the host "${u.hostname}" could not be looked up (DNS)`,
          'check the name server, or the host in DATABASE_URL',
        ),
      );
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return new StartupError(
        says(`${where} cannot be reached (${code})`, 'check the network and firewall, or the host in DATABASE_URL'),
      );
    case '3D000':
      return new ConfigError(
        says(
          `the database "${database}" does not exist on ${where}`,
          `create it (createdb ${database}), or correct its name in DATABASE_URL`,
        ),
      );
    case '28000':
      return new ConfigError(
        says(
          `PostgreSQL at ${where} does not let ${user} in (${firstLine(err)})`,
          `create the role (createuser ${user}) or allow it in pg_hba.conf, or correct the user in DATABASE_URL`,
        ),
      );
    case '28P01':
      return new ConfigError(
        says(`PostgreSQL at ${where} refuses the password of ${user}`, 'correct the password in DATABASE_URL'),
      );
    default:
      break;
  }
  if (/timeout/i.test(firstLine(err)) && /connect/i.test(firstLine(err))) {
    return new StartupError(
      says(
        `${where} did not answer in time`,
        'check that PostgreSQL runs there, or correct the host and port in DATABASE_URL',
      ),
    );
  }
  if (code?.startsWith('08') || /SSL/.test(firstLine(err))) {
    return new StartupError(
      says(`PostgreSQL at ${where} ended the connection (${firstLine(err)})`, 'check DATABASE_URL and its TLS options'),
    );
  }
  return null;
}

/** Where the configured storage is, for a message. */
export function storagePlace(config: Config): string {
  if (config.storage === 'fs') return `the folder ${path.join(config.dataDir, 'public')}`;
  const at = config.s3.endpoint ?? `the S3 address of region ${config.s3.region}`;
  return `bucket "${config.s3.bucket}" at ${at}`;
}

/** A refused S3 bucket as one line naming the variables; null for the folder storage or an unknown failure. */
export function storageProblem(err: unknown, config: Config): Error | null {
  if (config.storage !== 's3') return null;
  const place = storagePlace(config);
  const name = (err as Failure | null)?.name;
  const code = codeOf(err);
  switch (name) {
    case 'NoSuchBucket':
      return new ConfigError(`S3_BUCKET: there is no ${place}: create it, or correct S3_BUCKET (or S3_ENDPOINT).`);
    case 'InvalidAccessKeyId':
    case 'SignatureDoesNotMatch':
    case 'InvalidToken':
    case 'ExpiredToken':
    case 'CredentialsProviderError':
      return new ConfigError(
        `AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY: the ${place} refuses these credentials (${name}): set the key pair its S3 service issued for this bucket.`,
      );
    case 'AccessDenied':
    case 'Forbidden':
      return new ConfigError(
        `AWS_ACCESS_KEY_ID: the ${place} denies this key pair (AccessDenied): grant it s3:GetObject, s3:PutObject, s3:DeleteObject and s3:ListBucket on S3_BUCKET.`,
      );
    case 'PermanentRedirect':
    case 'AuthorizationHeaderMalformed':
      return new ConfigError(
        `S3_REGION: the ${place} is in another region (${name}): set S3_REGION to the bucket's region.`,
      );
    default:
      break;
  }
  switch (code) {
    case 'ECONNREFUSED':
      return new StartupError(
        `S3_ENDPOINT: nothing answers at ${config.s3.endpoint} (connection refused): start the S3 service there, or correct S3_ENDPOINT.`,
      );
    case 'ENOTFOUND':
      return new ConfigError(
        `S3_ENDPOINT: the host of ${place} is unknown (DNS): correct S3_ENDPOINT (or S3_FORCE_PATH_STYLE=1 for a self-hosted service).`,
      );
    case 'EAI_AGAIN':
    case 'ETIMEDOUT':
    case 'ECONNRESET':
    case 'EHOSTUNREACH':
      return new StartupError(
        `S3_ENDPOINT: ${place} cannot be reached (${code}): check the network, or correct S3_ENDPOINT.`,
      );
    default:
      return new StartupError(
        `storage refused a probe of ${place} (${name ?? code ?? 'error'}: ${firstLine(err)}): check S3_ENDPOINT, S3_BUCKET, S3_REGION and the credentials.`,
      );
  }
}

/**
 * Writes a small object, reads it back and deletes it (a role that writes), or reads the
 * readiness probe's key (a router, which only reads). Throws what went wrong as it came.
 */
export async function probeStorage(storage: ObjectStorage, writes: boolean): Promise<void> {
  if (!writes) {
    await storage.get(HEALTH_PROBE_KEY);
    return;
  }
  const key = healthProbeKey();
  const body = `probe ${new Date().toISOString()}\n`;
  await storage.put(key, body, { contentType: 'text/plain', cacheControl: 'no-store' });
  try {
    const back = await storage.get(key);
    if (back?.body.toString() !== body)
      throw new StartupError(`the object ${key} read back differs from what was written`);
  } finally {
    await storage.delete([key]);
  }
}

/**
 * Makes DATA_DIR, one folder at a time (Node's recursive mkdir loops for ever on some paths,
 * such as one under /proc), or says in one line why it cannot be made.
 */
export function prepareDataDir(dir: string): void {
  const missing: string[] = [];
  let at = dir;
  for (;;) {
    let found: Stats | undefined;
    try {
      found = statSync(at, { throwIfNoEntry: false });
    } catch (err) {
      // ENOTDIR: a part of the path is a file; EACCES: a folder on the way may not be read.
      throw new ConfigError(
        `DATA_DIR: ${dir} cannot be used (${codeOf(err) ?? 'error'}): set DATA_DIR to a folder this process may write.`,
      );
    }
    if (found) {
      if (!found.isDirectory()) {
        throw new ConfigError(
          `DATA_DIR: ${at} is a file, not a folder: set DATA_DIR to a folder this process may write.`,
        );
      }
      break;
    }
    missing.unshift(at);
    const up = path.dirname(at);
    if (up === at) break;
    at = up;
  }
  for (const folder of missing) {
    try {
      mkdirSync(folder);
    } catch (err) {
      const code = codeOf(err) ?? 'error';
      if (code === 'EEXIST') continue;
      throw new ConfigError(
        `DATA_DIR: ${dir} cannot be made (${code} at ${folder}): create it for the service's user, or set DATA_DIR to a folder this process may write.`,
      );
    }
  }
  try {
    accessSync(dir, constants.W_OK);
  } catch (err) {
    throw new ConfigError(
      `DATA_DIR: ${dir} is not writable by this process (${codeOf(err) ?? 'error'}): give its user write access, or set DATA_DIR to a folder it may write.`,
    );
  }
}
