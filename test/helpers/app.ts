/**
 * One app per test run, on a real HTTP port, over the run's database. Each test makes its own
 * data through factories, so nothing is truncated between tests.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { createApi } from '../../api/app.js';
import type { Services } from '../../api/services.js';
import { loadConfig } from '../../config.js';
import type { Database } from '../../store/db.js';
import { freshDatabase } from './db.js';

export interface TestApp {
  url: string;
  services: Services;
  /** Sets the clock the app reads; `clock.reset()` returns to real time. */
  clock: { set(date: Date | string): void; advance(ms: number): void; reset(): void };
  close(): Promise<void>;
}

export async function startApp(options: { db?: Database; env?: NodeJS.ProcessEnv } = {}): Promise<TestApp> {
  const owned = options.db ? null : await freshDatabase();
  const db = options.db ?? owned!.db;
  let fixed: number | null = null;
  const config = loadConfig({
    PORT: '0',
    DATA_DIR: '/tmp/linkpage-test',
    PAGE_DOMAIN: 'pages.test',
    TRUST_PROXY: '1',
    ...options.env,
  });
  const services: Services = {
    config: { ...config, baseUrl: config.baseUrl },
    db,
    secret: 'test-secret-0123456789-0123456789-abcdef',
    log: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    now: () => (fixed === null ? new Date() : new Date(fixed)),
  };
  const server = http.createServer(createApi(services).callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  services.config.baseUrl = url;
  return {
    url,
    services,
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
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await owned?.drop();
    },
  };
}
