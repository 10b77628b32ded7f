/**
 * An S3 HTTP server (s3rver) on 127.0.0.1 for the describe block that calls s3Bucket(): started
 * before its tests with an empty bucket `pages`, stopped and its folder removed after.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { type ObjectStorage, s3Storage } from '../../platform/store/objects.js';

/** An adapter to the bucket `pages` of an S3 server at `endpoint` (s3rver's own credentials). */
export function bucketStorage(endpoint: string): ObjectStorage {
  return s3Storage({
    bucket: 'pages',
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
}

export function s3Bucket(): { storage: () => ObjectStorage; endpoint: () => string; stop: () => Promise<void> } {
  let server: S3rver | undefined;
  let dir = '';
  let port = 0;
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'linkpage-s3-'));
    server = new S3rver({
      address: '127.0.0.1',
      port: 0,
      silent: true,
      directory: dir,
      configureBuckets: [{ name: 'pages', configs: [] }],
    });
    port = (await server.run()).port;
  });
  after(async () => {
    await server?.close().catch(() => {});
    if (dir) await rm(dir, { recursive: true, force: true });
  });
  const endpoint = () => `http://127.0.0.1:${port}`;
  return {
    /** An adapter to the bucket (call it once the server runs: in a hook or a test). */
    storage: () => bucketStorage(endpoint()),
    /** The server's address; objects are at `<endpoint>/pages/<key>`. */
    endpoint,
    /** Stops the server (the bucket becomes unreachable) before the describe block ends. */
    stop: async () => {
      await server?.close();
    },
  };
}
