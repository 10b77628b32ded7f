/**
 * A person at a browser, for the dashboard's HTTP tests: a cookie jar, one client address, the
 * CSRF token of the last page read, and forms posted the way a browser posts them.
 */
import { type Response, randomAddress, request, withCause } from './client.js';
import { uniqueName } from './factories.js';
import { app } from './hooks.js';

export interface Page {
  status: number;
  location: string | null;
  html: string;
  headers: Headers;
}

export class Person {
  readonly cookies = new Map<string, string>();
  /** The client address its requests come from (X-Forwarded-For): a fresh one unless given. */
  constructor(readonly address: string = randomAddress()) {}
  /** The browser's User-Agent. */
  userAgent = 'Mozilla/5.0 (dashboard tests)';
  /** The CSRF token of the last page read. */
  csrf = '';

  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  private remember(headers: Headers) {
    for (const line of headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attrs.some((a) => /^\s*expires=.*1970/i.test(a)) || value === '';
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  private async send(method: string, path: string, body?: URLSearchParams | FormData): Promise<Page> {
    const res = await fetch(app().url + path, {
      method,
      redirect: 'manual',
      headers: {
        cookie: this.cookieHeader(),
        'x-forwarded-for': this.address,
        'user-agent': this.userAgent,
        ...(body instanceof URLSearchParams ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body,
    }).catch((err: Error) => {
      throw withCause(err, `${method} ${path}`);
    });
    this.remember(res.headers);
    const html = await res.text();
    const token = /name="_csrf" value="([^"]+)"/.exec(html);
    if (token) this.csrf = token[1];
    return { status: res.status, location: res.headers.get('location'), html, headers: res.headers };
  }

  get(path: string): Promise<Page> {
    return this.send('GET', path);
  }

  /** Posts a form with the CSRF token of the last page read (or `csrf` when given). */
  post(path: string, fields: Record<string, string>, options: { csrf?: string } = {}): Promise<Page> {
    return this.send('POST', path, new URLSearchParams({ _csrf: options.csrf ?? this.csrf, ...fields }));
  }

  /** Posts a multipart form (a file upload); the CSRF token goes first, as a browser sends it. */
  upload(path: string, fields: Record<string, string | Blob>, options: { csrf?: string } = {}): Promise<Page> {
    const form = new FormData();
    form.append('_csrf', options.csrf ?? this.csrf);
    for (const [k, value] of Object.entries(fields)) form.append(k, value);
    return this.send('POST', path, form);
  }

  /** POSTs the page's CSRF token alone, as the page's script asks for a passkey challenge; the JSON answer. */
  async challenge(path: string): Promise<{ status: number; body: any }> {
    const res = await fetch(app().url + path, {
      method: 'POST',
      headers: {
        cookie: this.cookieHeader(),
        'x-forwarded-for': this.address,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ _csrf: this.csrf }),
    });
    return { status: res.status, body: await res.json() };
  }

  /** A JSON API request with this person's cookies (checked against openapi.json). */
  api<T = any>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Response<T>> {
    return request<T>(method, path, {
      body,
      headers: { cookie: this.cookieHeader(), 'x-forwarded-for': this.address, ...headers },
    });
  }
}

/** A person with a fresh account, logged in. */
export async function signedUp(): Promise<Person & { email: string; password: string }> {
  const person = Object.assign(new Person(), {
    email: `${uniqueName('person')}@example.com`,
    password: 'correct horse battery',
  });
  await person.get('/signup');
  const res = await person.post('/signup', { email: person.email, password: person.password });
  if (res.status !== 303) throw new Error(`sign-up failed: ${res.status} ${res.html.slice(0, 300)}`);
  await person.get('/dashboard');
  return person;
}

/** An API key the person makes in their session (POST /api/keys) with the label, role and pages given. */
export async function keyOf(person: Person, body: Record<string, unknown> = {}): Promise<{ id: string; key: string }> {
  const res = await person.api('POST', '/api/keys', body, { 'x-csrf-token': person.csrf });
  if (res.status !== 201) throw new Error(`POST /api/keys answered ${res.status}: ${res.text}`);
  return res.body;
}

/** The text of an alert on a dashboard page (error or notice), or ''. */
export function alertText(html: string): string {
  const m = /<div class="alert[^"]*"[^>]*>([\s\S]*?)<\/div>/.exec(html);
  return m
    ? m[1]
        .replace(/<[^>]+>/g, '')
        .replace(/\s+/g, ' ')
        .trim()
    : '';
}
