/**
 * Outgoing e-mail. With SMTP_URL each message goes through that SMTP server; without it (the
 * embedded default) nodemailer builds the same message and it is written as an `.eml` file
 * under DATA_DIR/mail/ (readable by the service's user alone), with one log line naming the
 * file, so a service without a mail server still lets its owner follow a reset or confirmation
 * link. The link itself is logged only in a developer's terminal (Config.mail.logLinks).
 *
 * Commands call `send` and do not wait for the message: a slow or broken mail server must not
 * slow an answer down, nor make "forgot password" answer differently for a known address. A
 * failure is logged. `settled()` waits for the messages under way (tests, shutdown).
 */
import { mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Transporter } from 'nodemailer';
import type { Logger } from 'pino';
import { compose, type InvitationFacts, type MessageKind } from './messages.js';
import type { NoticeFacts } from './security.js';

export interface Outgoing {
  to: string;
  /** The account's language; messages without a translation go in English. */
  locale: string;
  kind: MessageKind;
  /** The link the message carries (reset, confirmation), if any. */
  link?: string;
  /** The account the message is about: its `.eml` files go with it (forget). */
  accountId?: string;
  /** What a security notice tells: when, which device, from where (platform/mail/security.ts). */
  notice?: NoticeFacts;
  /** What an invitation tells (platform/mail/messages.ts). */
  invite?: InvitationFacts;
}

export interface Mailer {
  /** Sends in the background; never throws (failures are logged). */
  send(message: Outgoing): void;
  /** Resolves when every message sent so far is delivered or has failed. */
  settled(): Promise<void>;
  /** Deletes the `.eml` files written about the account (a deleted account's); none with SMTP. */
  forget(accountId: string): Promise<void>;
  /**
   * Deletes the farewells (`accountDeleted` files) written more than FAREWELL_KEPT_DAYS before
   * `now`: the last file naming a deleted account's address. Returns how many went.
   */
  sweepFarewells(now: Date): Promise<number>;
  close(): void;
}

/** The service's name: the display name of MAIL_FROM, else its address. */
function serviceName(from: string): string {
  const named = /^\s*"?([^"<]*?)"?\s*</.exec(from);
  return named?.[1] || from.replace(/[<>]/g, '').trim();
}

/** What the mailer reads of the configuration. */
/** How long a deleted account's farewell stays on disk for its reader (no SMTP server). */
export const FAREWELL_KEPT_DAYS = 7;
const FAREWELL = /-accountDeleted\.eml$/;

export interface MailSettings {
  /** SMTP_URL (none: .eml files), MAIL_FROM, and whether a written message's link is logged too. */
  mail: { smtpUrl: string | undefined; from: string; logLinks: boolean };
  /** The .eml files go under `<dataDir>/mail/`. */
  dataDir: string;
  baseUrl: string;
}

export function createMailer(config: MailSettings, log: Logger): Mailer {
  const smtp = config.mail.smtpUrl;
  // nodemailer and its hundred modules (~15 MB resident) load with the first message: most of a
  // service's life, and every start, sends none.
  let transport: Promise<Transporter> | undefined;
  const transportNow = () =>
    (transport ??= import('nodemailer').then(({ default: nodemailer }) =>
      smtp
        ? nodemailer.createTransport(smtp)
        : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }),
    ));
  const folder = path.join(config.dataDir, 'mail');
  const pending = new Set<Promise<void>>();
  let sequence = 0;

  /** The file's name is taken when the message is sent, so the folder lists messages in the order sent. */
  async function deliver(m: Outgoing, name: string): Promise<void> {
    const body = compose(m.kind, m.locale, {
      service: serviceName(config.mail.from),
      baseUrl: config.baseUrl,
      link: m.link,
      notice: m.notice,
      invite: m.invite,
    });
    const info = await (await transportNow()).sendMail({ from: config.mail.from, to: m.to, ...body });
    if (smtp) {
      log.info({ kind: m.kind, messageId: info.messageId }, `mail: ${m.kind} sent`);
      return;
    }
    await mkdir(folder, { recursive: true, mode: 0o700 });
    const file = path.join(folder, name);
    await writeFile(file, (info as unknown as { message: Buffer }).message, { mode: 0o600 });
    const link = m.link && config.mail.logLinks ? ` (link: ${m.link})` : '';
    log.info({ kind: m.kind, file }, `mail: ${m.kind} written to ${file}${link}`);
  }

  return {
    send(m) {
      sequence += 1;
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const about = m.accountId ? `${m.accountId}-` : '';
      const sending = deliver(m, `${stamp}-${String(sequence).padStart(6, '0')}-${about}${m.kind}.eml`)
        .catch((err) => log.error({ err, kind: m.kind }, `mail: ${m.kind} could not be sent`))
        .finally(() => pending.delete(sending));
      pending.add(sending);
    },
    async settled() {
      while (pending.size > 0) await Promise.all([...pending]);
    },
    async forget(accountId) {
      await this.settled();
      const names = await readdir(folder).catch(() => [] as string[]);
      const mark = `-${accountId}-`;
      await Promise.all(names.filter((n) => n.includes(mark)).map((n) => rm(path.join(folder, n), { force: true })));
    },
    async sweepFarewells(now) {
      const before = now.getTime() - FAREWELL_KEPT_DAYS * 86_400_000;
      const names = (await readdir(folder).catch(() => [] as string[])).filter((n) => FAREWELL.test(n));
      let swept = 0;
      for (const name of names) {
        const file = path.join(folder, name);
        const written = await stat(file).catch(() => null);
        if (written && written.mtimeMs < before) {
          await rm(file, { force: true });
          swept += 1;
        }
      }
      return swept;
    },
    close() {
      // A transport never made (nodemailer not loaded, or failed to load) has nothing to close.
      transport?.then((t) => t.close()).catch(() => {});
    },
  };
}
