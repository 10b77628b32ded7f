/**
 * Proof that a fetch made no connection: a target server that counts the connections it
 * accepts (on every local address, IPv4 and IPv6, so 0.0.0.0, [::] and [::ffff:127.0.0.1]
 * reach it too), and a spy on every TCP connection attempt the process makes (Node's
 * `net.client.socket` channel and the socket's `connectionAttempt` event, made for IP literals
 * and resolved names alike, before any packet is sent).
 */
import diagnostics from 'node:diagnostics_channel';
import net from 'node:net';

export interface ConnectionTarget {
  port: number;
  /** Connections the target accepted. */
  accepted: number;
  close(): Promise<void>;
}

export async function startConnectionTarget(): Promise<ConnectionTarget> {
  const sockets = new Set<net.Socket>();
  const target = { port: 0, accepted: 0, close: async () => {} };
  const server = net.createServer((socket) => {
    target.accepted++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.end('HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', () => {
      // No IPv6 here: IPv4 only.
      server.once('error', reject);
      server.listen(0, '0.0.0.0', resolve);
    });
    server.listen(0, '::', resolve);
  });
  target.port = (server.address() as net.AddressInfo).port;
  target.close = () =>
    new Promise((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
  return target;
}

export interface Attempt {
  address: string;
  port: number;
}

/** Records every connection attempt made while it is on. */
export function spyOnConnections(): { attempts: Attempt[]; stop(): void } {
  const attempts: Attempt[] = [];
  const onSocket = (message: unknown) => {
    const { socket } = message as { socket: net.Socket };
    socket.on('connectionAttempt', (address: string, port: number) => attempts.push({ address, port }));
  };
  diagnostics.subscribe('net.client.socket', onSocket);
  return { attempts, stop: () => diagnostics.unsubscribe('net.client.socket', onSocket) };
}
