/**
 * The AWS SDK's own warnings (platform/store/s3Storage.ts, SDK_LOG) reach the process's warnings, which a
 * service logs as JSON lines (ops/start/logger.ts), never as plain text on stdout: here its HTTP
 * handler's warning that every socket to the bucket is taken and requests wait, as a large
 * republish to a slow bucket makes it.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { expect } from 'chai';
import { s3Storage } from '../../platform/store/s3Storage.js';

describe('S3 storage: the SDK’s warnings (platform/store/s3Storage.ts)', function () {
  // The SDK looks at its sockets once a request has waited 3 s.
  this.timeout(30_000);
  let server: Server;
  const sockets = new Set<Socket>();
  before(async () => {
    // A bucket that takes every request and answers none.
    server = createServer(() => {});
    server.on('connection', (socket) => sockets.add(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  after(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  it('turns "socket usage at capacity" into a process warning instead of writing it to the console', async () => {
    const storage = s3Storage({
      bucket: 'slow',
      endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'KEY', secretAccessKey: 'SECRET' },
    });
    const warned = new Promise<Error>((resolve) => {
      const seen = (warning: Error) => {
        if (warning.name !== 'AwsSdkWarning') return;
        process.off('warning', seen);
        resolve(warning);
      };
      process.on('warning', seen);
    });
    const printed: unknown[] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => void printed.push(args);
    try {
      // More than the handler's 50 sockets and twice as many waiting.
      for (let i = 0; i < 160; i++) storage.get(`page-${i}/index.html`).catch(() => {});
      const warning = await warned;
      expect(warning.message).to.include('socket usage at capacity=50');
      expect(printed).to.deep.equal([]);
    } finally {
      console.warn = warn;
    }
  });
});
