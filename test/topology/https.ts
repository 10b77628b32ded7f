/**
 * A visitor over HTTPS to a custom domain: the name resolved to 127.0.0.1 (a custom lookup, as a
 * DNS record pointing at the service would), sent as SNI and Host, the certificate checked
 * against the given root (Caddy's internal CA) and the name.
 */
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { PeerCertificate, TLSSocket } from 'node:tls';
import { BROWSER_UA } from '../helpers/client.js';

export interface HttpsAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  certificate: PeerCertificate;
}

const loopback: LookupFunction = (_hostname, options, callback) => {
  if (options.all) callback(null, [{ address: '127.0.0.1', family: 4 }]);
  else callback(null, '127.0.0.1', 4);
};

export function httpsGet(o: { port: number; name: string; path: string; ca: string }): Promise<HttpsAnswer> {
  return new Promise((resolve, reject) => {
    const req = https.get(
      {
        host: o.name,
        port: o.port,
        path: o.path,
        lookup: loopback,
        ca: o.ca,
        // A connection of its own each time: every visit makes its own handshake.
        agent: false,
        headers: { 'user-agent': BROWSER_UA },
        timeout: 30_000,
      },
      (res) => {
        const certificate = (res.socket as TLSSocket).getPeerCertificate();
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString('utf8'),
            certificate,
          }),
        );
      },
    );
    req.on('timeout', () => req.destroy(new Error('no answer within 30 s')));
    req.on('error', reject);
  });
}
