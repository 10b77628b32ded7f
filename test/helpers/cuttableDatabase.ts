/**
 * The app on a fresh PostgreSQL schema that it reaches through a TCP proxy the test can cut, to
 * see what clients get while the database server is away (PostgreSQL only: DATABASE_URL).
 */
import { startApp } from './app.js';
import { freshDatabase } from './db.js';
import { ownApp } from './hooks.js';
import { startTcpProxy, type TcpProxy } from './tcpProxy.js';

export function ownAppBehindProxy() {
  let proxy: TcpProxy | undefined;
  let drop: (() => Promise<void>) | undefined;
  const app = ownApp({
    start: async () => {
      const real = new URL(process.env.DATABASE_URL!);
      proxy = await startTcpProxy({ host: real.hostname, port: Number(real.port || 5432) });
      const relayed = new URL(real);
      relayed.host = `127.0.0.1:${proxy.port}`;
      const made = await freshDatabase('postgres', undefined, relayed.toString());
      drop = async () => {
        await made.drop().catch(() => {});
        await (await freshDatabase('postgres')).drop();
      };
      return startApp({ db: made.db });
    },
  });
  after(async () => drop?.());
  return {
    app,
    /** The proxy between the app and PostgreSQL (cut() it). */
    proxy: (): TcpProxy => {
      if (!proxy) throw new Error('the app behind the proxy has not started');
      return proxy;
    },
  };
}
