/**
 * The security notices: a passkey or the authenticator app added or removed, new recovery
 * codes, a log-in from a browser the account did not know. Each says what happened, when (in
 * the account's time zone), from which device and place (in words), and what to do if it was
 * not the person: the link goes to the account screen, where sessions are signed out.
 */

export type SecurityKind =
  | 'passkeyAdded'
  | 'passkeyRemoved'
  | 'twoFactorOn'
  | 'twoFactorOff'
  | 'recoveryCodesNew'
  | 'newDevice';

export const SECURITY_KINDS: readonly SecurityKind[] = [
  'passkeyAdded',
  'passkeyRemoved',
  'twoFactorOn',
  'twoFactorOff',
  'recoveryCodesNew',
  'newDevice',
];

/** What a security notice tells besides its kind: when, on which device, from where. */
export interface NoticeFacts {
  at: Date;
  /** The account's time zone, in which `at` is written. */
  timeZone: string;
  /** The device in words ("Chrome on Linux"). */
  device: string;
  /** The country's name, or null when not known. */
  place: string | null;
}

interface Language {
  what: Record<SecurityKind, (service: string) => { subject: string; line: string }>;
  when: string;
  device: string;
  place: string;
  notYou: string;
  action: string;
}

const en: Language = {
  what: {
    passkeyAdded: (s) => ({ subject: `A passkey was added to your ${s} account`, line: 'A passkey was added.' }),
    passkeyRemoved: (s) => ({
      subject: `A passkey was removed from your ${s} account`,
      line: 'A passkey was removed: it no longer signs in.',
    }),
    twoFactorOn: (s) => ({
      subject: `Two-factor sign-in is on for your ${s} account`,
      line: 'The authenticator app was turned on as a second step of logging in.',
    }),
    twoFactorOff: (s) => ({
      subject: `Two-factor sign-in is off for your ${s} account`,
      line: 'The authenticator app was turned off: a password alone logs in again, and the recovery codes no longer work.',
    }),
    recoveryCodesNew: (s) => ({
      subject: `New recovery codes for your ${s} account`,
      line: 'New recovery codes were made; the earlier ones no longer work.',
    }),
    newDevice: (s) => ({
      subject: `A new log-in to your ${s} account`,
      line: 'Your account was logged in to from a browser it had not seen before.',
    }),
  },
  when: 'When',
  device: 'Device',
  place: 'From',
  notYou:
    'If this was not you, change your password at once, sign out every session you do not know on the account screen, and check your passkeys and two-factor settings there.',
  action: 'Open your account',
};

const de: Language = {
  what: {
    passkeyAdded: (s) => ({
      subject: `Ihrem ${s}-Konto wurde ein Passkey hinzugefügt`,
      line: 'Ein Passkey wurde hinzugefügt.',
    }),
    passkeyRemoved: (s) => ({
      subject: `Ein Passkey wurde aus Ihrem ${s}-Konto entfernt`,
      line: 'Ein Passkey wurde entfernt: Er meldet nicht mehr an.',
    }),
    twoFactorOn: (s) => ({
      subject: `Zwei-Faktor-Anmeldung für Ihr ${s}-Konto ist an`,
      line: 'Die Authenticator-App wurde als zweiter Schritt der Anmeldung eingeschaltet.',
    }),
    twoFactorOff: (s) => ({
      subject: `Zwei-Faktor-Anmeldung für Ihr ${s}-Konto ist aus`,
      line: 'Die Authenticator-App wurde ausgeschaltet: Das Passwort allein meldet wieder an, die Wiederherstellungscodes gelten nicht mehr.',
    }),
    recoveryCodesNew: (s) => ({
      subject: `Neue Wiederherstellungscodes für Ihr ${s}-Konto`,
      line: 'Es wurden neue Wiederherstellungscodes erstellt; die früheren gelten nicht mehr.',
    }),
    newDevice: (s) => ({
      subject: `Neue Anmeldung bei Ihrem ${s}-Konto`,
      line: 'Ihr Konto wurde in einem Browser angemeldet, den es noch nicht kannte.',
    }),
  },
  when: 'Wann',
  device: 'Gerät',
  place: 'Von',
  notYou:
    'Wenn Sie das nicht waren, ändern Sie sofort Ihr Passwort, melden Sie auf der Kontoseite jede Sitzung ab, die Sie nicht kennen, und prüfen Sie dort Passkeys und Zwei-Faktor-Einstellungen.',
  action: 'Konto öffnen',
};

const uk: Language = {
  what: {
    passkeyAdded: (s) => ({
      subject: `До облікового запису ${s} додано ключ доступу`,
      line: 'Додано ключ доступу (passkey).',
    }),
    passkeyRemoved: (s) => ({
      subject: `З облікового запису ${s} видалено ключ доступу`,
      line: 'Ключ доступу видалено: ним більше не можна увійти.',
    }),
    twoFactorOn: (s) => ({
      subject: `Двофакторний вхід до ${s} увімкнено`,
      line: 'Застосунок автентифікації увімкнено як другий крок входу.',
    }),
    twoFactorOff: (s) => ({
      subject: `Двофакторний вхід до ${s} вимкнено`,
      line: 'Застосунок автентифікації вимкнено: для входу знову досить пароля, а коди відновлення більше не діють.',
    }),
    recoveryCodesNew: (s) => ({
      subject: `Нові коди відновлення для ${s}`,
      line: 'Створено нові коди відновлення; попередні більше не діють.',
    }),
    newDevice: (s) => ({
      subject: `Новий вхід до облікового запису ${s}`,
      line: 'У ваш обліковий запис увійшли з браузера, якого він раніше не бачив.',
    }),
  },
  when: 'Коли',
  device: 'Пристрій',
  place: 'Звідки',
  notYou:
    'Якщо це були не ви, негайно змініть пароль, завершіть на сторінці облікового запису всі сеанси, яких ви не знаєте, і перевірте там ключі доступу та двофакторний вхід.',
  action: 'Відкрити обліковий запис',
};

const LANGUAGES: Record<string, Language> = { en, de, uk };

export function isSecurityKind(kind: string): kind is SecurityKind {
  return (SECURITY_KINDS as readonly string[]).includes(kind);
}

/** The subject, lines and link label of a security notice in the language of `locale`. */
export function securityWording(kind: SecurityKind, locale: string, service: string, facts: NoticeFacts) {
  const language = locale.toLowerCase().split('-')[0];
  const l = LANGUAGES[language] ?? en;
  const what = l.what[kind](service);
  const when = new Intl.DateTimeFormat(LANGUAGES[language] ? locale : 'en', {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZone: facts.timeZone,
    timeZoneName: 'short',
  }).format(facts.at);
  return {
    subject: what.subject,
    lines: [
      what.line,
      `${l.when}: ${when}. ${l.device}: ${facts.device}.${facts.place ? ` ${l.place}: ${facts.place}.` : ''}`,
      l.notYou,
    ],
    action: l.action,
  };
}
