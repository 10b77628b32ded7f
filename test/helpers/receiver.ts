/**
 * A webhook receiver on 127.0.0.1: keeps every delivery it gets and answers with the statuses it
 * is told (200 when none is queued). `verifies` checks a delivery with the standardwebhooks library.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';

export interface Delivery {
  headers: http.IncomingHttpHeaders;
  body: string;
  /** Standard Webhooks' {type, timestamp, data}, or for an endpoint on the legacy payload {id, type, time, object}. */
  json: { type: string; timestamp?: string; data?: any; id?: string; time?: string; object?: any };
}

export interface Receiver {
  url: string;
  /** `127.0.0.1:<port>`, as OUTBOUND_ALLOW lists it. */
  hostPort: string;
  deliveries: Delivery[];
  /** The next answers' statuses (or statuses with headers), in order; 200 once they are used up. */
  answer(...statuses: Answer[]): void;
  /** Answers every delivery with this status from now on (null: back to 200). */
  always(status: number | null): void;
  close(): Promise<void>;
}

type Answer = number | { status: number; headers: Record<string, string> };

export async function startReceiver(): Promise<Receiver> {
  const deliveries: Delivery[] = [];
  const queued: Answer[] = [];
  let fixed: number | null = null;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      deliveries.push({ headers: req.headers, body, json: JSON.parse(body) });
      const next = queued.shift() ?? fixed ?? 200;
      const [status, headers] = typeof next === 'number' ? [next, {}] : [next.status, next.headers];
      res.writeHead(status, { 'content-type': 'text/plain', ...headers }).end('thanks');
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

/**
 * Whether the delivery verifies with `secret` through the standardwebhooks library, as a
 * receiver's own code would: a signature of its id, timestamp and body, and a timestamp
 * within the library's five minutes of now.
 */
export function verifies(d: Delivery, secret: string): boolean {
  try {
    new Webhook(secret).verify(d.body, d.headers as Record<string, string>);
    return true;
  } catch (err) {
    if (err instanceof WebhookVerificationError) return false;
    throw err;
  }
}
