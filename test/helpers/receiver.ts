/**
 * A webhook receiver on 127.0.0.1: keeps every delivery it gets and answers with the statuses it
 * is told (200 when none is queued). `verify` checks a signature as a receiver's own code would.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Delivery {
  headers: http.IncomingHttpHeaders;
  body: string;
  json: { id: string; type: string; time: string; object: any };
}

export interface Receiver {
  url: string;
  /** `127.0.0.1:<port>`, as OUTBOUND_ALLOW lists it. */
  hostPort: string;
  deliveries: Delivery[];
  /** The next answers' statuses, in order; 200 once they are used up. */
  answer(...statuses: number[]): void;
  /** Answers every delivery with this status from now on (null: back to 200). */
  always(status: number | null): void;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const deliveries: Delivery[] = [];
  const queued: number[] = [];
  let fixed: number | null = null;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      deliveries.push({ headers: req.headers, body, json: JSON.parse(body) });
      res.writeHead(queued.shift() ?? fixed ?? 200, { 'content-type': 'text/plain' }).end('thanks');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/linkpage`,
    hostPort: `127.0.0.1:${port}`,
    deliveries,
    answer: (...statuses) => void queued.push(...statuses),
    always: (status) => {
      fixed = status;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Whether the Webhook-Signature header carries a v1 signature of `t.body` made with `secret`. */
export function verify(header: string, body: string, secret: string): boolean {
  const parts = header.split(',').map((p) => p.split('='));
  const t = parts.find(([k]) => k === 't')?.[1];
  if (!t) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${body}`).digest();
  return parts
    .filter(([k]) => k === 'v1')
    .some(([, hex]) => {
      const given = Buffer.from(hex, 'hex');
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
}
