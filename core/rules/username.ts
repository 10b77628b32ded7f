/** Username rules: 3 to 30 of a-z, 0-9 and inner single hyphens, not reserved; each broken rule has its error code. */

export type UsernameProblem = 'too_short' | 'too_long' | 'bad_chars' | 'edge_hyphen' | 'double_hyphen' | 'reserved';

const USERNAME_MIN = 3;
const USERNAME_MAX = 30;

/** Names that belong to the service: its own hosts, routes, roles and words that invite impersonation. */
export const RESERVED_USERNAMES: ReadonlySet<string> = new Set([
  'about',
  'abuse',
  'account',
  'accounts',
  'admin',
  'administrator',
  'agent',
  'agents',
  'ai',
  'analytics',
  'api',
  'app',
  'apps',
  'assets',
  'auth',
  'billing',
  'blog',
  'bot',
  'cdn',
  'claim',
  'config',
  'contact',
  'dashboard',
  'dev',
  'developer',
  'developers',
  'docs',
  'download',
  'edit',
  'editor',
  'email',
  'embed',
  'example',
  'export',
  'faq',
  'feed',
  'files',
  'ftp',
  'help',
  'home',
  'host',
  'hostmaster',
  'images',
  'img',
  'import',
  'info',
  'internal',
  'jobs',
  'keys',
  'legal',
  'link',
  'links',
  'linkpage',
  'llms',
  'localhost',
  'login',
  'logout',
  'mail',
  'mailer',
  'md',
  'media',
  'mcp',
  'moderator',
  'new',
  'news',
  'noreply',
  'no-reply',
  'oauth',
  'official',
  'openapi',
  'page',
  'pages',
  'password',
  'pay',
  'postmaster',
  'press',
  'pricing',
  'privacy',
  'profile',
  'profiles',
  'register',
  'root',
  'router',
  'security',
  'settings',
  'setup',
  'shop',
  'signin',
  'signup',
  'sitemap',
  'smtp',
  'staff',
  'static',
  'stats',
  'status',
  'store',
  'support',
  'system',
  'team',
  'terms',
  'test',
  'upload',
  'uploads',
  'user',
  'username',
  'users',
  'webmaster',
  'well-known',
  'worker',
  'www',
]);

const ALLOWED = /^[a-z0-9-]+$/;

/**
 * The first rule a name breaks, checked in this order: too_short, too_long, bad_chars,
 * edge_hyphen, double_hyphen, reserved; null for a valid name.
 */
export function usernameProblem(name: string): UsernameProblem | null {
  if (name.length < USERNAME_MIN) return 'too_short';
  if (name.length > USERNAME_MAX) return 'too_long';
  if (!ALLOWED.test(name)) return 'bad_chars';
  if (name.startsWith('-') || name.endsWith('-')) return 'edge_hyphen';
  if (name.includes('--')) return 'double_hyphen';
  if (RESERVED_USERNAMES.has(name)) return 'reserved';
  return null;
}

const SUFFIXES = ['hq', 'page', 'links', 'me', 'online', 'studio', 'official', 'io', 'app', 'co'];

/**
 * Candidate alternatives for a taken name, most natural first; every one is valid by the rules.
 * Whether they are free is the store's question.
 */
export function usernameCandidates(name: string, random: () => number = Math.random): string[] {
  const base =
    name
      .replace(/[^a-z0-9-]/g, '')
      .replace(/-+/g, '-')
      .replace(/^-|-$/g, '') || 'page';
  const withSuffix = (suffix: string, sep: string) => {
    const room = USERNAME_MAX - suffix.length - sep.length;
    return `${base.slice(0, room).replace(/-$/, '')}${sep}${suffix}`;
  };
  const out = new Set<string>();
  for (const s of SUFFIXES) out.add(withSuffix(s, '-'));
  for (let i = 0; i < 6; i++) out.add(withSuffix(String(10 + Math.floor(random() * 990)), ''));
  for (let i = 0; i < 4; i++) out.add(withSuffix(String(1000 + Math.floor(random() * 9000)), '-'));
  return [...out].filter((c) => c !== name && usernameProblem(c) === null);
}
