import { expect } from 'chai';
import { pino } from 'pino';
import { loadConfig } from '../../core/config.js';
import { startProcess } from '../../ops/start/process.js';
import { SPLIT } from '../helpers/app.js';
import { freshDatabase } from '../helpers/db.js';
import { app } from '../helpers/hooks.js';
import { startTcpProxy } from '../helpers/tcpProxy.js';

// The embedded database lives in the process and cannot go away under it: PostgreSQL only.
if (process.env.DATABASE_URL) {
  describe('a worker whose PostgreSQL goes away (jobs/agenda.ts)', function () {
    this.timeout(60_000);

    it('keeps running, logging the lost connection, instead of ending the process', async () => {
      const real = new URL(process.env.DATABASE_URL!);
      const proxy = await startTcpProxy({ host: real.hostname, port: Number(real.port || 5432) });
      const relayed = new URL(real);
      relayed.host = `127.0.0.1:${proxy.port}`;
      const { db, drop } = await freshDatabase('postgres', undefined, relayed.toString());
      const lines: string[] = [];
      const log = pino({ level: 'warn' }, { write: (line: string) => void lines.push(line) });
      const worker = await startProcess({
        config: loadConfig({ ...SPLIT, PORT: '0', DATA_DIR: app().dataDir, ROLE: 'worker' }),
        listen: false,
        overrides: { db, log, secret: app().services.secret },
      });
      try {
        await proxy.cut();
        // The LISTEN connection notices within moments; an 'error' nobody listened to would throw here.
        for (let i = 0; i < 40 && !lines.some((l) => l.includes('notification channel lost')); i++) {
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        expect(lines.join('\n')).to.include('jobs: notification channel lost; reconnecting');
      } finally {
        await worker.stop(100).catch(() => {});
        await drop().catch(() => {});
        await (await freshDatabase('postgres')).drop();
      }
    });
  });
}
