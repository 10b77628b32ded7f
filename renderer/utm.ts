/** UTM tagging for pages with `utm: true`: outbound http(s) links say where the visit came from. */
export function withUtm(url: string, username: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return url;
  if (!parsed.searchParams.has('utm_source')) parsed.searchParams.set('utm_source', username);
  if (!parsed.searchParams.has('utm_medium')) parsed.searchParams.set('utm_medium', 'link-in-bio');
  return parsed.toString();
}
