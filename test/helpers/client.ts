/**
 * A small HTTP client for the tests. Every answer it receives is checked against the
 * openapi.json the app serves: a status the document does not declare, or a body that does
 * not match its schema, fails the test that received it.
 */
import http from 'node:http';
import type { ValidateFunction } from 'ajv';
import type { TestApp } from './app.js';
import { app } from './hooks.js';
import { dereference, schemaErrors, schemaValidator } from './openapi.js';

export interface Response<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  body?: unknown;
  /** Sent as is, with the content type given in headers (default JSON). */
  raw?: string;
  /** Sent as multipart/form-data. */
  form?: FormData;
  key?: string;
  headers?: Record<string, string>;
  /** Skip the contract check (for answers outside openapi.json, like plain 404 pages). */
  unchecked?: boolean;
}

export async function request<T = any>(
  method: string,
  path: string,
  options: RequestOptions = {},
): Promise<Response<T>> {
  // Each request comes from its own address unless the test names one, so per-address limits
  // bite only in the tests that are about them (the app trusts X-Forwarded-For in tests).
  const headers: Record<string, string> = {
    'user-agent': 'linkpage-tests/1.0',
    'x-forwarded-for': randomAddress(),
    ...options.headers,
  };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  let body: string | FormData | undefined;
  if (options.form !== undefined) {
    body = options.form;
  } else if (options.raw !== undefined) {
    body = options.raw;
    headers['content-type'] ??= 'application/json';
  } else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(app().url + path, { method, headers, body }).catch((err: Error) => {
    throw withCause(err, `${method} ${path}`);
  });
  const text = await res.text();
  const isJson = (res.headers.get('content-type') ?? '').includes('json');
  const response: Response<T> = {
    status: res.status,
    headers: res.headers,
    body: isJson && text ? JSON.parse(text) : text,
    text,
  };
  if (!options.unchecked) await checkContract(method, path, response);
  return response;
}

/**
 * fetch's "fetch failed" with what failed and why (its cause: ECONNRESET, "other side closed", a
 * timeout), which mocha does not print on its own.
 */
export function withCause(err: Error, what: string): Error {
  const cause = err.cause as (Error & { code?: string }) | undefined;
  if (!cause) return err;
  err.message = `${err.message}: ${what}: ${cause.code ?? cause.name}: ${cause.message}`;
  return err;
}

/** Addresses in 198.18.0.0/15 with a last byte of 1-254. */
const ADDRESSES = 2 * 256 * 254;
let nextAddress = Math.floor(Math.random() * ADDRESSES);

/**
 * A documentation-range address (198.18.0.0/15), different for every call in this process (the
 * next of the range's 130,048, from a random start). Not drawn at random: the rate limits count
 * per address in the run's one database, so two tests that drew the same address shared a
 * limit's windows, and a test that fills a day's window (ten keyless creates) made any later
 * test that drew its address fail with 429.
 */
export function randomAddress(): string {
  const n = nextAddress++ % ADDRESSES;
  return `198.${18 + Math.floor(n / (256 * 254))}.${Math.floor(n / 254) % 256}.${1 + (n % 254)}`;
}

/**
 * Uploads `image` (the bytes of a picture file) through `POST /api/upload` as the account's
 * `kind` of image, as a form would; throws unless it answers 201. Its answer: the media key and URL.
 */
export async function uploadImage(key: string, kind: string, image: Buffer): Promise<{ key: string; url: string }> {
  const form = new FormData();
  form.set('kind', kind);
  form.set('file', new Blob([new Uint8Array(image)]), 'picture.png');
  const res = await request('POST', '/api/upload', { key, form });
  if (res.status !== 201) throw new Error(`POST /api/upload answered ${res.status}: ${res.text}`);
  return res.body;
}

export const api = {
  get: <T = any>(path: string, o?: RequestOptions) => request<T>('GET', path, o),
  post: <T = any>(path: string, body?: unknown, o?: RequestOptions) => request<T>('POST', path, { ...o, body }),
  patch: <T = any>(path: string, body?: unknown, o?: RequestOptions) => request<T>('PATCH', path, { ...o, body }),
  put: <T = any>(path: string, body?: unknown, o?: RequestOptions) => request<T>('PUT', path, { ...o, body }),
  delete: <T = any>(path: string, o?: RequestOptions) => request<T>('DELETE', path, o),
};

let document: any;
/** Each operation's answer validators by `method template status`: no schema text to make per answer. */
const validators = new Map<string, ValidateFunction>();

async function openapi(): Promise<any> {
  document ??= dereference(await (await fetch(`${app().url}/openapi-3.1.json`)).json());
  return document;
}

/** Throws when the answer is not one the document declares for this operation. */
async function checkContract(method: string, path: string, res: Response): Promise<void> {
  const doc = await openapi();
  const pathname = path.split('?')[0];
  const template = Object.keys(doc.paths).find((t) =>
    new RegExp(`^${t.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(pathname),
  );
  const operation = template && doc.paths[template][method.toLowerCase()];
  if (!operation) {
    if (res.status === 404 && res.body?.code === 'not_found') return;
    throw new Error(`contract: ${method} ${pathname} is not in openapi.json (answered ${res.status})`);
  }
  const declared = operation.responses[String(res.status)];
  if (!declared) {
    throw new Error(`contract: ${method} ${template} does not declare status ${res.status}: ${res.text.slice(0, 300)}`);
  }
  const schema = declared.content?.['application/json']?.schema;
  if (!schema) return;
  const id = `${method} ${template} ${res.status}`;
  let validate = validators.get(id);
  if (!validate) {
    validate = schemaValidator(schema);
    validators.set(id, validate);
  }
  if (!validate(res.body)) {
    throw new Error(`contract: ${id} body does not match openapi.json: ${schemaErrors(validate)}`);
  }
}

/** A person's browser (page hosts do not count bots as views). */
export const BROWSER_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36';
/** A phone's browser. */
export const PHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

export interface HostAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  text: string;
}

/** A request to 127.0.0.1:`port` for the host `host` (fetch cannot set Host), from `localAddress` if given. */
export function hostRequest(
  port: number,
  host: string,
  path: string,
  options: { method?: string; headers?: Record<string, string>; localAddress?: string } = {},
): Promise<HostAnswer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: options.method ?? 'GET',
        localAddress: options.localAddress,
        headers: { host, 'user-agent': BROWSER_UA, ...options.headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body, text: body.toString('utf8') });
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** A request to a page host `<name>.<PAGE_DOMAIN>` of the test app. */
export function pageRequest(
  name: string,
  path: string,
  options: { method?: string; headers?: Record<string, string>; app?: TestApp } = {},
): Promise<HostAnswer> {
  const { port, services } = options.app ?? app();
  return hostRequest(port, `${name}.${services.config.pageDomain}`, path, options);
}
