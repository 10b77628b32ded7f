/**
 * The messages the service sends, in plain text and simple HTML, in the account's language
 * where a translation exists (English otherwise). Each message is a few lines and at most one
 * link; the HTML is made from the same lines, escaped.
 */
import { isSecurityKind, type NoticeFacts, type SecurityKind, securityWording } from './security.js';

export type MessageKind =
  | 'passwordReset'
  | 'passwordChanged'
  | 'verifyEmail'
  | 'accountDeleted'
  | 'webhookDisabled'
  | 'invitation'
  | SecurityKind;

/** What an invitation tells: who invites, to whose account, as what. */
export interface InvitationFacts {
  inviter: string;
  account: string;
  role: string;
  days: number;
}

/** The lines of one message: a subject, paragraphs, and the label of its link (if it has one). */
interface Wording {
  subject: string;
  lines: string[];
  action?: string;
}

type Catalogue = Record<
  Exclude<MessageKind, SecurityKind>,
  (v: { service: string; hours: number; invite: InvitationFacts }) => Wording
>;

const en: Catalogue = {
  passwordReset: ({ service, hours }) => ({
    subject: `Reset your ${service} password`,
    lines: [
      `Someone (we hope you) asked to reset the password of your ${service} account.`,
      `The link below works once, for ${hours} hour. If you did not ask, ignore this message: your password stays as it is.`,
    ],
    action: 'Choose a new password',
  }),
  passwordChanged: ({ service }) => ({
    subject: `Your ${service} password was changed`,
    lines: [
      `The password of your ${service} account was just changed, and every browser was logged out.`,
      'If this was not you, reset your password at once with the link below.',
    ],
    action: 'Reset the password',
  }),
  verifyEmail: ({ service }) => ({
    subject: `Confirm your e-mail for ${service}`,
    lines: [
      `Please confirm that this address belongs to your ${service} account.`,
      'A confirmed address lets you reset your password if you ever forget it.',
    ],
    action: 'Confirm my e-mail',
  }),
  accountDeleted: ({ service }) => ({
    subject: `Your ${service} account is deleted`,
    lines: [
      `Your ${service} account was deleted, with its pages, images, keys and statistics.`,
      'Its page names stay reserved so that nobody else can take them. Thank you for using the service.',
    ],
  }),
  webhookDisabled: ({ service }) => ({
    subject: `A ${service} webhook was turned off`,
    lines: [
      `Every delivery to one of your ${service} webhooks failed for 3 days, so we stopped sending to it.`,
      'See which one and what it answered, and turn it on again once it works, in the dashboard.',
    ],
    action: 'Open your webhooks',
  }),
  invitation: ({ service, invite }) => ({
    subject: `${invite.inviter} invites you to work on their ${service} pages`,
    lines: [
      `${invite.inviter} invites you to the ${service} account of ${invite.account}, as ${invite.role}.`,
      `The link below works once, for ${invite.days} days. You log in, or make an account of your own, and then accept. If you do not know who this is, ignore this message.`,
    ],
    action: 'See the invitation',
  }),
};

const de: Catalogue = {
  passwordReset: ({ service, hours }) => ({
    subject: `Passwort für ${service} zurücksetzen`,
    lines: [
      `Jemand (hoffentlich Sie) möchte das Passwort Ihres ${service}-Kontos zurücksetzen.`,
      `Der Link unten gilt einmal und ${hours} Stunde lang. Wenn Sie das nicht waren, ignorieren Sie diese Nachricht: Ihr Passwort bleibt unverändert.`,
    ],
    action: 'Neues Passwort wählen',
  }),
  passwordChanged: ({ service }) => ({
    subject: `Ihr Passwort für ${service} wurde geändert`,
    lines: [
      `Das Passwort Ihres ${service}-Kontos wurde soeben geändert, und alle Browser wurden abgemeldet.`,
      'Wenn Sie das nicht waren, setzen Sie Ihr Passwort sofort über den Link unten zurück.',
    ],
    action: 'Passwort zurücksetzen',
  }),
  verifyEmail: ({ service }) => ({
    subject: `Bestätigen Sie Ihre E-Mail-Adresse für ${service}`,
    lines: [
      `Bitte bestätigen Sie, dass diese Adresse zu Ihrem ${service}-Konto gehört.`,
      'Mit einer bestätigten Adresse können Sie Ihr Passwort zurücksetzen, falls Sie es vergessen.',
    ],
    action: 'E-Mail-Adresse bestätigen',
  }),
  accountDeleted: ({ service }) => ({
    subject: `Ihr ${service}-Konto wurde gelöscht`,
    lines: [
      `Ihr ${service}-Konto wurde gelöscht, mit seinen Seiten, Bildern, Schlüsseln und Statistiken.`,
      'Die Namen seiner Seiten bleiben reserviert, damit niemand anderes sie übernimmt. Danke, dass Sie den Dienst genutzt haben.',
    ],
  }),
  webhookDisabled: ({ service }) => ({
    subject: `Ein Webhook von ${service} wurde abgeschaltet`,
    lines: [
      `Alle Zustellungen an einen Ihrer ${service}-Webhooks sind 3 Tage lang fehlgeschlagen; wir senden ihm nichts mehr.`,
      'Im Dashboard sehen Sie, welcher es ist und was er geantwortet hat, und können ihn wieder einschalten, sobald er funktioniert.',
    ],
    action: 'Webhooks öffnen',
  }),
  invitation: ({ service, invite }) => ({
    subject: `${invite.inviter} lädt Sie zu seinen ${service}-Seiten ein`,
    lines: [
      `${invite.inviter} lädt Sie in das ${service}-Konto von ${invite.account} ein, als ${invite.role}.`,
      `Der Link unten gilt einmal und ${invite.days} Tage lang. Sie melden sich an oder legen ein eigenes Konto an und nehmen dann an. Wenn Sie die Person nicht kennen, ignorieren Sie diese Nachricht.`,
    ],
    action: 'Einladung ansehen',
  }),
};

const uk: Catalogue = {
  passwordReset: ({ service, hours }) => ({
    subject: `Відновлення пароля ${service}`,
    lines: [
      `Хтось (сподіваємося, ви) попросив скинути пароль вашого облікового запису ${service}.`,
      `Посилання нижче діє один раз протягом ${hours} години. Якщо це були не ви, просто проігноруйте цей лист: пароль лишиться без змін.`,
    ],
    action: 'Обрати новий пароль',
  }),
  passwordChanged: ({ service }) => ({
    subject: `Пароль ${service} змінено`,
    lines: [
      `Пароль вашого облікового запису ${service} щойно змінено, і всі браузери вийшли з нього.`,
      'Якщо це були не ви, негайно скиньте пароль за посиланням нижче.',
    ],
    action: 'Скинути пароль',
  }),
  verifyEmail: ({ service }) => ({
    subject: `Підтвердьте адресу для ${service}`,
    lines: [
      `Будь ласка, підтвердьте, що ця адреса належить вашому обліковому запису ${service}.`,
      'Підтверджена адреса дозволить відновити пароль, якщо ви його забудете.',
    ],
    action: 'Підтвердити адресу',
  }),
  accountDeleted: ({ service }) => ({
    subject: `Обліковий запис ${service} видалено`,
    lines: [
      `Ваш обліковий запис ${service} видалено разом зі сторінками, зображеннями, ключами та статистикою.`,
      'Назви його сторінок лишаються зарезервованими, щоб ніхто інший їх не зайняв. Дякуємо, що користувалися сервісом.',
    ],
  }),
  webhookDisabled: ({ service }) => ({
    subject: `Вебхук ${service} вимкнено`,
    lines: [
      `Усі доставки на один із ваших вебхуків ${service} не вдавалися 3 дні, тож ми припинили надсилання.`,
      'У панелі керування видно, який саме і що він відповідав; увімкніть його знову, коли він запрацює.',
    ],
    action: 'Відкрити вебхуки',
  }),
  invitation: ({ service, invite }) => ({
    subject: `${invite.inviter} запрошує вас до сторінок ${service}`,
    lines: [
      `${invite.inviter} запрошує вас до облікового запису ${service} власника ${invite.account} з роллю ${invite.role}.`,
      `Посилання нижче діє один раз протягом ${invite.days} днів. Увійдіть або створіть власний обліковий запис і прийміть запрошення. Якщо ви не знаєте, хто це, проігноруйте цей лист.`,
    ],
    action: 'Переглянути запрошення',
  }),
};

const CATALOGUES: Record<string, Catalogue> = { en, de, uk };

/** What the messages that are not invitations are handed (they do not read it). */
const NO_INVITE: InvitationFacts = { inviter: '', account: '', role: '', days: 0 };

export interface Composed {
  subject: string;
  text: string;
  html: string;
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

/** The message of `kind` in `locale` (its language, e.g. `de` of `de-AT`), with the link if it has one. */
export function compose(
  kind: MessageKind,
  locale: string,
  o: { service: string; baseUrl: string; link?: string; notice?: NoticeFacts; invite?: InvitationFacts },
): Composed {
  const catalogue = CATALOGUES[locale.toLowerCase().split('-')[0]] ?? en;
  let w: Wording;
  if (isSecurityKind(kind)) {
    if (!o.notice) throw new Error(`the ${kind} message needs its facts`);
    w = securityWording(kind, locale, o.service, o.notice);
  } else if (kind === 'invitation' && !o.invite) {
    throw new Error('the invitation message needs its facts');
  } else w = catalogue[kind]({ service: o.service, hours: 1, invite: o.invite ?? NO_INVITE });
  const link = w.action ? o.link : undefined;
  const text = [...w.lines, ...(link ? [`${w.action}: ${link}`] : []), `— ${o.service}, ${o.baseUrl}`].join('\n\n');
  const html = [
    '<!doctype html><html><body style="font-family:sans-serif;line-height:1.5;max-width:36em">',
    ...w.lines.map((l) => `<p>${escapeHtml(l)}</p>`),
    link ? `<p><a href="${escapeHtml(link)}">${escapeHtml(w.action ?? link)}</a></p>` : '',
    `<p style="color:#555">— <a href="${escapeHtml(o.baseUrl)}">${escapeHtml(o.service)}</a></p>`,
    '</body></html>',
  ].join('\n');
  return { subject: w.subject, text, html };
}
