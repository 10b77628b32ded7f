/**
 * One link of a page, checked as a polite robot would: HEAD first, then GET (headers only, the
 * body is not read) when HEAD is refused, redirects followed, all within one short deadline,
 * through the SSRF-safe fetcher, with a User-Agent that names the service.
 */
import { AppError } from '../../core/errors.js';
import { FAILURE_TEXT, failureCause } from './fetchErrors.js';
import type { Fetcher } from './fetcher.js';

export const LINK_CHECK_USER_AGENT =
  'linkpage-linkcheck/1.0 (link-in-bio page service; checks the links on the pages it hosts, one request at a time per host)';

/** ok: the link answers; failed: it does not (4xx, 5xx, no answer); unknown: the site refused a robot, or the address may not be reached. */
export interface Probe {
  outcome: 'ok' | 'failed' | 'unknown';
  status: number | null;
  error: string | null;
}

/** Statuses that say "not to robots" rather than "gone": they mark nothing. */
const REFUSED_ROBOT = new Set([401, 403, 429]);

export async function probeLink(fetcher: Fetcher, url: string, deadlineMs: number): Promise<Probe> {
  const deadline = Date.now() + deadlineMs;
  const request = (method: 'HEAD' | 'GET') =>
    fetcher.fetchPublic(url, 'url', {
      method,
      maxBytes: 0,
      truncate: true,
      anyStatus: true,
      maxRedirects: 5,
      timeoutMs: Math.max(1, deadline - Date.now()),
      accept: 'text/html,*/*;q=0.8',
      headers: { 'user-agent': LINK_CHECK_USER_AGENT },
    });
  try {
    let { status } = await request('HEAD');
    // Many servers refuse HEAD (405, 501) or answer it otherwise than GET: an error is asked again with GET.
    if (status >= 400) status = (await request('GET')).status;
    return classify(status);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    // A name that resolves nowhere public and a host that refuses connections fail alike, so
    // the owner cannot tell an internal name from a missing one (platform/outbound/fetchErrors.ts).
    const cause = failureCause(err);
    if (cause) return { outcome: 'failed', status: null, error: FAILURE_TEXT[cause] };
    if (err.code === 'blocked') return { outcome: 'unknown', status: null, error: `blocked: ${err.message}` };
    return { outcome: 'failed', status: null, error: err.message };
  }
}

function classify(status: number): Probe {
  if (status >= 200 && status < 300) return { outcome: 'ok', status, error: null };
  if (REFUSED_ROBOT.has(status)) return { outcome: 'unknown', status, error: `Answered ${status} to a robot.` };
  if (status >= 300 && status < 400) return { outcome: 'failed', status, error: 'More than 5 redirects.' };
  return { outcome: 'failed', status, error: `Answered ${status}.` };
}
