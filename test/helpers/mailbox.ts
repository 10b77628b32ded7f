/**
 * A real SMTP server on 127.0.0.1 (smtp-server) that keeps every message it receives, read back
 * with mailparser: the tests' mail server, and an app that sends through it.
 */
import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { startApp, type TestApp } from './app.js';

export interface Received {
  to: string;
  subject: string;
  text: string;
  html: string;
  from: string;
  /** The first link of the service the message carries, if any. */
  link: string | undefined;
  parsed: ParsedMail;
}

export interface Mailbox {
  url: string;
  received: Received[];
  /** The next message to `to` not taken yet (waits for it). */
  next(to: string): Promise<Received>;
  /** Messages to `to` received and not taken yet. */
  waiting(to: string): Received[];
  close(): Promise<void>;
}

export async function startMailbox(): Promise<Mailbox> {
  const received: Received[] = [];
  const taken = new Set<Received>();
  const waiters: (() => void)[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    onData(stream, _session, done) {
      simpleParser(stream)
        .then((parsed) => {
          const text = parsed.text ?? '';
          received.push({
            to: (Array.isArray(parsed.to) ? parsed.to[0] : parsed.to)?.value[0]?.address ?? '',
            from: parsed.from?.text ?? '',
            subject: parsed.subject ?? '',
            text,
            html: typeof parsed.html === 'string' ? parsed.html : '',
            link: /https?:\/\/\S+\/(password\/reset|email\/verify|password\/forgot|dashboard\/webhooks|dashboard\/invitations)\S*/.exec(
              text,
            )?.[0],
            parsed,
          });
          for (const wake of waiters.splice(0)) wake();
          done();
        })
        .catch(done);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  const waiting = (to: string) => received.filter((m) => !taken.has(m) && m.to.toLowerCase() === to.toLowerCase());
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    waiting,
    async next(to) {
      for (;;) {
        const [m] = waiting(to);
        if (m) {
          taken.add(m);
          return m;
        }
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * A mailbox of each test's own, started before it (and before the beforeEach hooks registered
 * after this call) and closed after it: what a test finds there is what it sent.
 */
export function mailboxPerTest(): () => Mailbox {
  let mailbox: Mailbox | undefined;
  beforeEach(async () => {
    mailbox = await startMailbox();
  });
  afterEach(async () => {
    await mailbox?.close();
    mailbox = undefined;
  });
  return () => {
    if (!mailbox) throw new Error("the test's mailbox is started in its beforeEach hook");
    return mailbox;
  };
}

/** An app that sends its mail to `mailbox` (SMTP_URL). */
export function startAppWithMailbox(mailbox: () => Mailbox): Promise<TestApp> {
  return startApp({ env: { SMTP_URL: mailbox().url, MAIL_FROM: 'Linkpage Test <hello@linkpage.test>' } });
}
