/**
 * The notices the dashboard shows after a redirect ("Saved and published."). The address
 * carries a notice's id, never its text, so a link cannot make the dashboard say anything.
 */
const NOTICES = {
  welcome: 'Welcome! Your account is ready. Add your first page below.',
  'logged-out': 'You are logged out.',
  claimed: 'The account is yours now. Its API keys keep working.',
  'password-changed': 'Password changed. Other browsers were logged out.',
  'language-saved': 'Language saved.',
  'time-zone-saved': 'Time zone saved.',
  'key-revoked': 'The key is revoked. Requests with it are refused from now on.',
  'app-disconnected': 'The app is disconnected. Its tokens are refused from now on.',
  'page-created': 'Your new page is live. Make it yours.',
  'page-started-links': 'Your new page is live, with the links of your link page. Make it yours.',
  'page-started-profile': 'Your new page is live, with the name, bio and photo of your profile. Make it yours.',
  'page-started-both':
    'Your new page is live, with the links of your link page and the name, bio and photo of your profile. Make it yours.',
  'page-deleted': 'The page is deleted.',
  saved: 'Saved and published.',
  done: 'Done.',
  'block-added': 'Block added.',
  'image-saved': 'Image saved and published.',
  'image-removed': 'Image removed.',
  'version-restored': 'Version restored and published.',
  'proposal-approved': 'Approved and published.',
  'proposal-declined': 'Declined. The proposer can read your note.',
  'webhook-deleted': 'The webhook is deleted.',
  'webhook-redelivered': 'The event is on its way again, with the same webhook-id.',
  'webhook-standard': "The webhook now gets Standard Webhooks' body: {type, timestamp, data}.",
  'password-reset': 'Your password is changed. Log in with it now.',
  'verify-sent': 'A confirmation link is on its way to your e-mail.',
  'account-deleted': 'Your account is deleted, with everything it held.',
  'passkey-added': 'Passkey added. You can sign in with it now.',
  'passkey-removed': 'Passkey removed. It no longer signs in here.',
  'totp-off': 'Authenticator app turned off. Your recovery codes no longer work.',
  'session-ended': 'That session is signed out.',
  'sessions-ended': 'Every other session is signed out.',
  'signed-out-everywhere': 'You are signed out everywhere, this browser too.',
  'domain-active': 'The records are in place: the page is served on your domain now.',
  'domain-waiting': 'The records are not there yet. Add them at your DNS host; we keep looking for them.',
  'domain-detached': 'The domain is detached. The page is on its own address only.',
  proposed: 'Proposed. An owner or editor of the page approves it before it is published.',
  'invitation-sent': 'The invitation is on its way. It works once, for 7 days.',
  'invitation-withdrawn': 'The invitation is withdrawn. Its link no longer works.',
  'member-changed': 'Saved. It holds from their next click.',
  'member-removed': 'Removed. They no longer reach the account, and the keys they made on it are revoked.',
  'left-account': 'You left the account. You are back in your own.',
  'switched-account': 'Switched.',
  joined: 'You joined the account. You are working in it now; switch back at the top.',
} as const;

/** The text of a notice; only these can be shown. */
export type NoticeText = (typeof NOTICES)[keyof typeof NOTICES];

const ID_OF = new Map<string, string>(Object.entries(NOTICES).map(([id, text]) => [text, id]));
const TEXT_OF = new Map<string, string>(Object.entries(NOTICES));

/** The id that stands for a notice in the address. */
export function noticeId(text: NoticeText): string {
  return ID_OF.get(text) as string;
}

/** The text of a notice id from the address; anything else shows nothing. */
export function noticeText(id: unknown): string | undefined {
  return typeof id === 'string' ? TEXT_OF.get(id) : undefined;
}
