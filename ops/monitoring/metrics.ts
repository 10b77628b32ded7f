/**
 * The process's metrics in Prometheus's text format (prom-client): requests and latency by
 * route and status, the publish outbox, publishes, jobs, the view and tap counters, image
 * work, the database pool, and Node's own (memory, event loop, GC). Values other parts keep
 * (the outbox, the counters' buffer, the pool) are read when scraped, not pushed.
 */
import type { Agenda } from 'agenda';
import { Counter, collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import type { Services } from '../../core/services.js';
import { imagesInFlight } from '../../platform/media/pipeline.js';
import { publishQueueRepo } from '../../platform/store/publishQueue.js';
import { requestHistogram } from './requestHistogram.js';
import { withTimeout } from './timeout.js';

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** What the metrics read of the jobs (jobs/agenda.ts): their Agenda, for its run events. */
interface WatchedJobs {
  agenda: Agenda;
}

/** What the metrics read of the page host's view and tap counters (router/counters.ts). */
interface CounterStats {
  stats(): { buffered: number; lagMs: number };
}

export interface Metrics {
  registry: Registry;
  /** Records an answered request: its route name, method, status and seconds taken. */
  record(route: string, method: string | undefined, status: number, seconds: number): void;
  /** Counts the jobs' runs and failures. */
  watchJobs(jobs: WatchedJobs): void;
}

export function createMetrics(s: Services, counters: CounterStats | null): Metrics {
  const registry = new Registry();
  const registers = [registry];
  collectDefaultMetrics({ register: registry });
  // Gauges named like counters, which `promtool check metrics` refuses: each is the sum of the
  // per-type gauge of the same name without `_total` (nodejs_active_handles{type} and so on).
  for (const name of ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total']) {
    registry.removeSingleMetric(name);
  }

  const requests = requestHistogram(
    registry,
    'http_request_duration_seconds',
    'Time from a request to its answer, by route, method and status.',
  );

  // The outbox is read once per scrape for its three gauges (their collects start together and
  // share the read under way), with a time limit: a database that does not answer must not take
  // /metrics down with it. Then database_up is 0 and the outbox gauges keep their last values.
  let outboxRead: Promise<{ count: number; oldest: Date | null; purges: number } | null> | null = null;
  const outbox = () => {
    outboxRead ??= withTimeout(publishQueueRepo(s.db).depth(), 2_000)
      .catch(() => null)
      .finally(() => {
        outboxRead = null;
      });
    return outboxRead;
  };
  new Gauge({
    name: 'database_up',
    help: 'Whether the database answered the outbox query of this scrape within 2 s (1) or not (0).',
    registers,
    async collect() {
      this.set((await outbox()) ? 1 : 0);
    },
  });
  new Gauge({
    name: 'publish_outbox_depth',
    help: 'Page names waiting to be published (changes not yet in storage).',
    registers,
    async collect() {
      const read = await outbox();
      if (read) this.set(read.count);
    },
  });
  new Gauge({
    name: 'publish_outbox_oldest_seconds',
    help: 'How long the oldest name in the outbox has waited (0 when it is empty).',
    registers,
    async collect() {
      const read = await outbox();
      if (read) this.set(read.oldest ? Math.max(0, (Date.now() - read.oldest.getTime()) / 1000) : 0);
    },
  });
  new Gauge({
    name: 'cdn_purges_waiting',
    help: 'CDN purges the CDN refused or has not yet taken, waiting for a retry (0 without a CDN).',
    registers,
    async collect() {
      const read = await outbox();
      if (read) this.set(read.purges);
    },
  });
  const published = new Counter({
    name: 'publishes_total',
    help: 'Pages published (rendered and stored, or removed).',
    registers,
  });
  const publishFailures = new Counter({
    name: 'publish_failures_total',
    help: 'Publishes that failed and were left in the outbox for a retry.',
    registers,
  });
  s.publisher.onPublished(() => published.inc());
  s.publisher.onFailed(() => publishFailures.inc());

  const jobRuns = new Counter({
    name: 'job_runs_total',
    help: 'Background job runs finished, by job.',
    labelNames: ['job'] as const,
    registers,
  });
  const jobFailures = new Counter({
    name: 'job_failures_total',
    help: 'Background job runs that failed, by job.',
    labelNames: ['job'] as const,
    registers,
  });

  if (counters) {
    new Gauge({
      name: 'counters_buffered',
      help: 'Views and taps counted in memory, not yet written to the database.',
      registers,
      collect() {
        const { buffered, lagMs } = counters.stats();
        this.set(buffered);
        flushLag.set(lagMs / 1000);
      },
    });
    const flushLag = new Gauge({
      name: 'counters_flush_lag_seconds',
      help: 'Age of the oldest view or tap not yet written (0 when none).',
      registers,
    });
  }

  new Gauge({
    name: 'image_jobs_in_flight',
    help: 'Uploaded images being decoded and encoded right now.',
    registers,
    collect() {
      this.set(imagesInFlight());
    },
  });

  new Gauge({
    name: 'db_pool_connections',
    help: 'PostgreSQL pool connections by state (in_use, idle, waiting for one); absent on PGlite.',
    labelNames: ['state'] as const,
    registers,
    collect() {
      const pool = s.db.connections();
      if (!pool) return;
      this.set({ state: 'in_use' }, pool.total - pool.idle);
      this.set({ state: 'idle' }, pool.idle);
      this.set({ state: 'waiting' }, pool.waiting);
    },
  });

  return {
    registry,
    record(route, method, status, seconds) {
      requests.observe(route, method && METHODS.has(method) ? method : 'other', status, seconds);
    },
    watchJobs(jobs) {
      jobs.agenda.on('complete', (job, remote) => {
        if (!remote) jobRuns.inc({ job: job.attrs.name });
      });
      jobs.agenda.on('fail', (_err, job, remote) => {
        if (!remote) jobFailures.inc({ job: (job as { attrs: { name: string } }).attrs.name });
      });
    },
  };
}
