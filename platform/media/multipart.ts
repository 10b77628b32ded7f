/**
 * Reads a multipart upload (`kind` and `file`) with busboy. The size limit is enforced while
 * the bytes arrive: with the kind's limit once `kind` has been read (clients send it first),
 * with the largest limit of any kind before that, so no request holds more than 30 MB.
 */
import type { IncomingMessage } from 'node:http';
import busboy from 'busboy';
import { AppError } from '../../core/errors.js';
import type { ImageKind } from '../store/layout.js';
import { isImageKind, KIND_LIMITS, MAX_UPLOAD_BYTES, tooLarge } from './pipeline.js';

export interface MultipartUpload {
  kind: ImageKind;
  file: Buffer;
  /** The other small text fields (the dashboard's form sends its CSRF token and target). */
  fields: Record<string, string>;
}

/** Room for the part headers and the kind field around the file. */
const ENVELOPE_BYTES = 64 * 1024;

export function readMultipartUpload(req: IncomingMessage): Promise<MultipartUpload> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > MAX_UPLOAD_BYTES + ENVELOPE_BYTES) return Promise.reject(tooLarge(null));

  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        limits: { files: 1, fields: 4, parts: 6, fieldSize: 1024, fileSize: MAX_UPLOAD_BYTES },
      });
    } catch {
      reject(invalidBody('The multipart body has no boundary; send it as multipart/form-data.'));
      return;
    }
    let kind: string | undefined;
    let file: Buffer | undefined;
    const fields: Record<string, string> = {};
    let failure: AppError | undefined;
    const fail = (err: AppError) => {
      failure ??= err;
    };

    parser.on('field', (name, value) => {
      if (name === 'kind') kind = value;
      else fields[name] = value;
    });
    parser.on('file', (name, stream) => {
      if (name !== 'file') {
        stream.resume();
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      stream.on('data', (chunk: Buffer) => {
        if (failure) return;
        size += chunk.length;
        const limit = isImageKind(kind) ? KIND_LIMITS[kind].maxBytes : MAX_UPLOAD_BYTES;
        if (size > limit) {
          fail(tooLarge(isImageKind(kind) ? kind : null));
          chunks.length = 0; // the rest is read and dropped, so the client still gets the answer
          return;
        }
        chunks.push(chunk);
      });
      stream.on('limit', () => fail(tooLarge(isImageKind(kind) ? kind : null)));
      stream.on('end', () => {
        if (!failure) file = Buffer.concat(chunks, size);
      });
    });
    parser.on('partsLimit', () => fail(invalidBody('Send only the fields kind and file.')));
    parser.on('filesLimit', () => fail(invalidBody('Send one file per upload.')));
    parser.on('fieldsLimit', () => fail(invalidBody('Send only the fields kind and file.')));
    parser.on('error', () => reject(failure ?? invalidBody('The multipart body could not be read.')));
    parser.on('close', () => {
      if (failure) return reject(failure);
      if (file === undefined || file.length === 0) {
        return reject(
          new AppError('no_file', {
            field: 'file',
            detail: 'file',
            hint: file === undefined ? 'Send the image in a multipart field named "file".' : 'The file sent is empty.',
          }),
        );
      }
      if (!isImageKind(kind)) return reject(new AppError('bad_kind', { field: 'kind', detail: 'kind' }));
      if (file.length > KIND_LIMITS[kind].maxBytes) return reject(tooLarge(kind));
      resolve({ kind, file, fields });
    });
    req.on('error', () => reject(invalidBody('The upload was interrupted.')));
    req.pipe(parser);
  });
}

function invalidBody(hint: string): AppError {
  return new AppError('invalid_fields', { detail: 'body', hint });
}
