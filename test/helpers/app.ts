/**
 * One app per test run, on a real HTTP port, over the run's database. Each test makes its own
 * data through factories, so nothing is truncated between tests.
 */

import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { type Logger, pino } from 'pino';
import { loadConfig } from '../../core/config.js';
import type { Services } from '../../core/services.js';
import { startProcess } from '../../ops/start/process.js';
import type { Cdn } from '../../platform/cdn/cdn.js';
import { createFetcher } from '../../platform/outbound/fetcher.js';
import type { Database } from '../../platform/store/db.js';
import type { ObjectStorage } from '../../platform/store/objects.js';
import type { Counters } from '../../router/counters.js';
import { freshDatabase } from './db.js';
import { RUN_TMP } from './run.js';
import { TEST_ZONE, testCertificate } from './site.js';

/** The settings every process of a split installation must be given (core/configRoles.ts), for tests that start one. */
export const SPLIT = {
  SECRET: 'split-role-secret-0123456789-0123456789',
  BASE_URL: 'http://apex.test',
  PAGE_DOMAIN: 'pages.test',
};

export interface TestApp {
  url: string;
  port: number;
  services: Services;
  counters: Counters;
  dataDir: string;
  /** Sets the clock the app reads; `clock.reset()` returns to real time. */
  clock: { set(date: Date | string): void; advance(ms: number): void; reset(): void };
  close(): Promise<void>;
}

export async function startApp(
  options: {
    db?: Database;
    env?: NodeJS.ProcessEnv;
    storage?: ObjectStorage;
    log?: Logger;
    cdn?: Cdn;
    /** The fetcher made from the configuration (OUTBOUND_ALLOW), as in production, rather than the test one. */
    configuredFetcher?: boolean;
  } = {},
): Promise<TestApp> {
  const owned = options.db ? null : await freshDatabase();
  const db = options.db ?? owned!.db;
  await mkdir(RUN_TMP, { recursive: true });
  const dataDir = await mkdtemp(path.join(RUN_TMP, 'app-'));
  let fixed: number | null = null;
  const config = loadConfig({
    PORT: '0',
    DATA_DIR: dataDir,
    PAGE_DOMAIN: 'pages.test',
    TRUST_PROXY: '1',
    // scrypt's lowest cost: the suite signs up and logs in a few hundred people, each hash at the
    // production cost (15) taking 0.1-0.2 s of a core. test/api/passwordCost.test.ts runs that one.
    PASSWORD_COST: '10',
    ...options.env,
  });
  const running = await startProcess({
    config,
    role: 'all',
    background: false,
    listen: { host: '127.0.0.1', port: 0 },
    overrides: {
      db,
      secret: 'test-secret-0123456789-0123456789-abcdef',
      log: options.log ?? pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
      now: () => (fixed === null ? new Date() : new Date(fixed)),
      // Every jittered retry waits its whole length, unless a test draws another.
      random: () => 1,
      storage: options.storage,
      cdn: options.cdn,
      fetcher: options.configuredFetcher ? undefined : testFetcher((await testCertificate()).cert),
    },
  });
  const { services, counters } = running;
  const { port } = running.server!.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  services.config.baseUrl = url;
  services.config.mediaUrl = `${url}/media`;
  return {
    url,
    port,
    services,
    counters,
    dataDir,
    clock: {
      set: (d) => {
        fixed = new Date(d).getTime();
      },
      advance: (ms) => {
        fixed = (fixed ?? Date.now()) + ms;
      },
      reset: () => {
        fixed = null;
      },
    },
    async close() {
      await running.stop();
      await owned?.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The app's fetcher in tests: names under TEST_ZONE resolve to the loopback servers tests start
 * (`private.*` to a private address, to see it refused); loopback is allowed only here, and
 * the HTTPS test sites' certificate (helpers/tls.ts) is trusted.
 */
function testFetcher(ca: string) {
  return createFetcher({
    allowLoopbackForTests: true,
    caForTests: ca,
    resolve: async (host) => {
      if (!host.endsWith(`.${TEST_ZONE}`))
        throw Object.assign(new Error(`${host} is outside the test network`), { code: 'ENOTFOUND' });
      return host.startsWith('private.') ? ['10.20.30.40'] : ['127.0.0.1'];
    },
  });
}
