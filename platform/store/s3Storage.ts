/** Any S3-compatible bucket through @aws-sdk/client-s3, as object storage. */
import type { S3Client } from '@aws-sdk/client-s3';
import { assertKey, metaOf, type ObjectStorage, quotedMd5, type S3Options } from './objectMeta.js';

/** The user metadata (`x-amz-meta-surrogate-keys`) that holds an object's purge keys in a bucket. */
const SURROGATE_KEYS_HEADER = 'surrogate-keys';

/**
 * The SDK's own warnings (its HTTP handler's "socket usage at capacity" during a large
 * republish, for one), which it would write with console.warn as plain text on stdout among the
 * JSON lines: as process warnings instead, which the service logs as JSON (ops/start/logger.ts).
 * What it says at info and below (each request, once it has a logger) is left out, and so are its
 * error lines: each repeats a failed request, which the caller is given as an error to handle.
 */
export const SDK_LOG = {
  trace: () => {},
  debug: () => {},
  info: () => {},
  warn: (...words: unknown[]) =>
    process.emitWarning(words.map((w) => (typeof w === 'string' ? w : JSON.stringify(w))).join(' '), 'AwsSdkWarning'),
  error: () => {},
};

/** A prefix is a key followed by `/`. */
function assertPrefix(prefix: string): void {
  assertKey(prefix.replace(/\/$/, ''));
  if (!prefix.endsWith('/')) throw new Error(`prefix must end with /: ${prefix}`);
}

/** Any S3-compatible bucket through @aws-sdk/client-s3. */
export function s3Storage(options: S3Options): ObjectStorage {
  // The SDK is loaded with the first call, not with the process: the embedded default never needs it.
  let loading: Promise<{ sdk: typeof import('@aws-sdk/client-s3'); client: S3Client }> | undefined;
  const s3 = () => {
    loading ??= import('@aws-sdk/client-s3').then((sdk) => ({
      sdk,
      client: new sdk.S3Client({
        region: options.region,
        endpoint: options.endpoint,
        forcePathStyle: options.forcePathStyle,
        ...(options.credentials && { credentials: options.credentials }),
        logger: SDK_LOG,
        // A bucket that takes the connection and never answers fails the call instead of holding
        // it (and the job or publish waiting on it) for ever: no answer for this long, and the
        // SDK retries; no connection within a few seconds, likewise.
        requestHandler: {
          logger: SDK_LOG,
          connectionTimeout: 5_000,
          requestTimeout: 30_000,
          throwOnRequestTimeout: true,
          // Else it would follow from the two above (35 s): said once requests have waited 3 s.
          socketAcquisitionWarningTimeout: 3_000,
        },
      }),
    }));
    return loading;
  };
  const Bucket = options.bucket;
  const { credentials, ...plain } = options;

  return {
    // Credentials given in code stay here; without them a worker finds the same ones in the environment.
    ...(!credentials && { spec: { kind: 's3', options: plain } }),
    async put(key, body, meta, options = {}) {
      assertKey(key);
      const { sdk, client } = await s3();
      if (options.unlessSame) {
        const etag = quotedMd5(typeof body === 'string' ? Buffer.from(body) : body);
        const stored = await client.send(new sdk.HeadObjectCommand({ Bucket, Key: key })).catch((err) => {
          if (
            (err as { name?: string }).name === 'NotFound' ||
            (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404
          )
            return null;
          throw err;
        });
        if (stored?.ETag === etag) return { etag, lastModified: stored.LastModified ?? new Date() };
      }
      const out = await client.send(
        new sdk.PutObjectCommand({
          Bucket,
          Key: key,
          Body: body,
          ContentType: meta.contentType,
          CacheControl: meta.cacheControl,
          ...(meta.contentEncoding && { ContentEncoding: meta.contentEncoding }),
          ...(meta.surrogateKeys && { Metadata: { [SURROGATE_KEYS_HEADER]: meta.surrogateKeys } }),
        }),
      );
      // The bucket's own LastModified is its clock at the write, within a second of this one.
      return {
        etag: out.ETag ?? quotedMd5(typeof body === 'string' ? Buffer.from(body) : body),
        lastModified: new Date(),
      };
    },

    async get(key) {
      assertKey(key);
      const { sdk, client } = await s3();
      try {
        const out = await client.send(new sdk.GetObjectCommand({ Bucket, Key: key }));
        const body = Buffer.from(await out.Body!.transformToByteArray());
        return {
          body,
          ...metaOf({
            contentType: out.ContentType ?? 'application/octet-stream',
            cacheControl: out.CacheControl ?? '',
            surrogateKeys: out.Metadata?.[SURROGATE_KEYS_HEADER],
            contentEncoding: out.ContentEncoding,
          }),
          etag: out.ETag ?? quotedMd5(body),
          ...(out.LastModified && { lastModified: out.LastModified }),
        };
      } catch (err) {
        if (err instanceof sdk.NoSuchKey || (err as { name?: string }).name === 'NoSuchKey') return null;
        throw err;
      }
    },

    async has(key) {
      assertKey(key);
      const { sdk, client } = await s3();
      try {
        await client.send(new sdk.HeadObjectCommand({ Bucket, Key: key }));
        return true;
      } catch (err) {
        const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
        if (status === 404 || (err as { name?: string }).name === 'NotFound') return false;
        throw err;
      }
    },

    async delete(keys) {
      if (keys.length === 0) return;
      keys.forEach(assertKey);
      const { sdk, client } = await s3();
      await client.send(
        new sdk.DeleteObjectsCommand({ Bucket, Delete: { Objects: keys.map((Key) => ({ Key })), Quiet: true } }),
      );
    },

    async deletePrefix(prefix, keep = []) {
      assertPrefix(prefix);
      const { sdk, client } = await s3();
      let count = 0;
      // Each listing is at most 1,000 keys, which is also what one DeleteObjects takes.
      for (;;) {
        const listed = await client.send(new sdk.ListObjectsV2Command({ Bucket, Prefix: prefix }));
        const keys = (listed.Contents ?? []).map((o) => o.Key!).filter((key) => key && !keep.includes(key));
        if (keys.length === 0) return count;
        await client.send(
          new sdk.DeleteObjectsCommand({ Bucket, Delete: { Objects: keys.map((Key) => ({ Key })), Quiet: true } }),
        );
        count += keys.length;
        if (!listed.IsTruncated) return count;
      }
    },

    async list(prefix) {
      assertPrefix(prefix);
      const { sdk, client } = await s3();
      const listed = await client.send(new sdk.ListObjectsV2Command({ Bucket, Prefix: prefix }));
      return (listed.Contents ?? []).map((o) => o.Key!).filter(Boolean);
    },
  };
}
