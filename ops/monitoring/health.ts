/**
 * Liveness and readiness. `/healthz`: the process is up and its event loop turns. `/readyz`:
 * the parts this role needs answer: the database (reachable, with every migration this build
 * knows applied) and object storage (writable where this role writes: the API and the worker;
 * readable for the router). A load balancer sends traffic only to a ready process, and a
 * deploy waits for readiness before it moves on.
 */
import type { Config } from '../../core/config.js';
import type { Services } from '../../core/services.js';
import { HEALTH_PROBE_KEY, healthProbeKey } from '../../platform/store/layout.js';
import { listMigrations } from '../../platform/store/migrate.js';
import { withTimeout } from './timeout.js';

const CHECK_TIMEOUT_MS = 3_000;
const REUSE_MS = 1_000;

/** A check's outcome; why it failed goes to the log, not to whoever asks (it can name internal hosts). */
interface Check {
  ok: boolean;
  ms: number;
}

export interface Readiness {
  ready: boolean;
  checks: Record<string, Check>;
}

export function readinessChecks(s: Services, role: Config['role']): () => Promise<Readiness> {
  const known = listMigrations().map((m) => m.version);
  let probing: Promise<void> = Promise.resolve();
  const checks: Record<string, () => Promise<unknown>> = {
    async database() {
      const rows = await s.db.query<{ version: string }>('SELECT version FROM schema_migrations');
      const applied = new Set(rows.map((r) => r.version));
      const missing = known.filter((v) => !applied.has(v));
      if (missing.length > 0) throw new Error(`migrations not applied: ${missing.join(', ')}`);
    },
    storage:
      role === 'router'
        ? () => s.storage.get(HEALTH_PROBE_KEY)
        : () => {
            // After the last write and delete have ended, even one whose check gave up waiting:
            // this process's probes never overlap on its key (healthProbeKey).
            probing = probing
              .catch(() => {})
              .then(async () => {
                const key = healthProbeKey();
                await s.storage.put(key, 'ok\n', { contentType: 'text/plain', cacheControl: 'no-store' });
                await s.storage.delete([key]);
              });
            return probing;
          },
  };
  const check = async (): Promise<Readiness> => {
    const results = await Promise.all(Object.entries(checks).map(async ([name, c]) => [name, await run(s, name, c)]));
    const all = Object.fromEntries(results) as Record<string, Check>;
    return { ready: Object.values(all).every((c) => c.ok), checks: all };
  };
  // /readyz is public: however often it is asked, the database and storage are asked at most
  // once a second (a check under way is shared; its answer, ready or not, is kept a second).
  let running: Promise<Readiness> | null = null;
  let last: { at: number; answer: Readiness } | null = null;
  return () => {
    if (last && Date.now() - last.at < REUSE_MS) return Promise.resolve(last.answer);
    running ??= check().then((answer) => {
      running = null;
      last = { at: Date.now(), answer };
      return answer;
    });
    return running;
  };
}

async function run(s: Services, name: string, check: () => Promise<unknown>): Promise<Check> {
  const started = performance.now();
  try {
    await withTimeout(check(), CHECK_TIMEOUT_MS);
    return { ok: true, ms: Math.round(performance.now() - started) };
  } catch (err) {
    s.log.warn({ err, check: name }, 'not ready');
    return { ok: false, ms: Math.round(performance.now() - started) };
  }
}
