/** Which part of the dashboard's navigation a screen belongs to, by its path (the one it answers at). */
export type Section = 'pages' | 'members' | 'keys' | 'webhooks' | 'account' | null;

const SECTIONS: [Section, RegExp][] = [
  // A page's editor, statistics, history, domain and previews are the page's.
  ['pages', /^\/dashboard(\/pages(\/|$)|\/?$)/],
  // Keys, and the apps connected through OAuth listed beside them.
  ['keys', /^\/dashboard\/(keys|apps)(\/|$)/],
  ['webhooks', /^\/dashboard\/webhooks(\/|$)/],
  ['members', /^\/dashboard\/members(\/|$)/],
  // The account screen and what its forms answer: passkeys, the authenticator app, e-mail.
  ['account', /^\/dashboard\/(account|passkeys|totp|email)(\/|$)/],
];

/** The navigation entry a path is under, or null (the consent screen, a fresh-proof prompt). */
export function sectionOf(path: string): Section {
  return SECTIONS.find(([, pattern]) => pattern.test(path))?.[0] ?? null;
}
