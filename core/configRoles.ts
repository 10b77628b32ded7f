/**
 * The settings a process of a split installation (ROLE api, router or worker) must be given:
 * the defaults are one machine's (localhost, and a SECRET made in DATA_DIR for this process alone),
 * and every process of an installation must agree on them.
 */

/** Why each setting must be given. */
const SHARED_SETTINGS = {
  SECRET: 'every process of the installation must share it; one made in DATA_DIR would be this process’s own',
  BASE_URL: 'the address of the API and dashboard, which pages, e-mails and the other processes use',
  PAGE_DOMAIN: 'the domain the page hosts are under, which every process must agree on',
} as const;

type SharedSetting = keyof typeof SHARED_SETTINGS;

/** One line for each shared setting a split role lacks; none for ROLE=all. */
export function missingSharedSettings(e: { ROLE: string } & Partial<Record<SharedSetting, unknown>>): string[] {
  if (e.ROLE === 'all') return [];
  return (Object.keys(SHARED_SETTINGS) as SharedSetting[])
    .filter((name) => e[name] === undefined)
    .map((name) => `${name}: must be set when ROLE=${e.ROLE} (${SHARED_SETTINGS[name]})`);
}
