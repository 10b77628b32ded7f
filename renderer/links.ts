/** Where blocks point: outbound URLs (with UTM), messenger deep links and embed player URLs. */
import type { EmbedBlock, MessengerBlock } from '../core/model.js';

export function messengerUrl(b: Pick<MessengerBlock, 'platform' | 'handle'>): string {
  const digits = b.handle.replace(/[^0-9]/g, '');
  switch (b.platform) {
    case 'telegram':
      return `https://t.me/${encodeURIComponent(b.handle.trim().replace(/^@/, ''))}`;
    case 'whatsapp':
      return `https://wa.me/${digits}`;
    case 'viber':
      return `viber://chat?number=%2B${digits}`;
  }
}

/** The privacy-respecting player URL for an embed, or null when the share URL names nothing playable. */
export function embedPlayerUrl(b: Pick<EmbedBlock, 'provider' | 'url'>): string | null {
  let u: URL;
  try {
    u = new URL(b.url);
  } catch {
    return null;
  }
  const parts = u.pathname.split('/').filter(Boolean);
  switch (b.provider) {
    case 'youtube': {
      const id = u.hostname.endsWith('youtu.be')
        ? parts[0]
        : (u.searchParams.get('v') ?? (['embed', 'shorts', 'live'].includes(parts[0]) ? parts[1] : null));
      return id && /^[A-Za-z0-9_-]{6,20}$/.test(id) ? `https://www.youtube-nocookie.com/embed/${id}` : null;
    }
    case 'spotify': {
      const i = parts.findIndex((p) => ['track', 'album', 'playlist', 'episode', 'show', 'artist'].includes(p));
      return i >= 0 && parts[i + 1]
        ? `https://open.spotify.com/embed/${parts[i]}/${encodeURIComponent(parts[i + 1])}`
        : null;
    }
    case 'soundcloud':
      return parts.length >= 1
        ? `https://w.soundcloud.com/player/?url=${encodeURIComponent(b.url)}&visual=false&show_comments=false`
        : null;
    case 'applemusic':
      return parts.length >= 2
        ? `https://embed.music.apple.com/${parts.map(encodeURIComponent).join('/')}${u.search}`
        : null;
    case 'tiktok': {
      const i = parts.indexOf('video');
      const id = i >= 0 ? parts[i + 1] : null;
      return id && /^\d+$/.test(id) ? `https://www.tiktok.com/embed/v2/${id}` : null;
    }
  }
}

export const EMBED_NAMES: Record<EmbedBlock['provider'], string> = {
  youtube: 'YouTube',
  spotify: 'Spotify',
  soundcloud: 'SoundCloud',
  applemusic: 'Apple Music',
  tiktok: 'TikTok',
};

export const MESSENGER_NAMES: Record<MessengerBlock['platform'], string> = {
  telegram: 'Telegram',
  whatsapp: 'WhatsApp',
  viber: 'Viber',
};

/** A phone number as a `tel:` URI (RFC 3966): its digits, and the + of an international number. */
export function telUri(phone: string): string {
  return `tel:${phone.replace(/[^0-9+]/g, '').replace(/(?!^)\+/g, '')}`;
}
