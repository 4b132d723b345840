import { HOST_RULES, invalid, type LinkClassification, PLATFORMS, type Platform } from './platform-links.js';

/**
 * Tells what a caller's link points at, without any network access (rules: docs/sources.md).
 *
 * - a single video on a known platform → `{ kind: 'platform', platform, canonicalUrl }`
 * - a link to a media file or HLS playlist on any other host → `{ kind: 'direct', url }`
 * - a playlist → 422 PLAYLIST_URL, a channel or profile page → 422 CHANNEL_URL,
 *   a YouTube Short → 422 SHORTS_NOT_SUPPORTED, anything else → 422 INVALID_URL.
 */
export type { LinkClassification, Platform } from './platform-links.js';
export { PLATFORMS } from './platform-links.js';

export const MEDIA_EXTENSIONS = ['.mp4', '.mov', '.webm', '.mkv', '.m4v', '.m3u8', '.mp3', '.m4a', '.wav', '.aac', '.ogg'] as const;

const MAX_URL_LENGTH = 2048;

/** `www.`, `m.`, `mobile.`, `web.` and similar prefixes name the same site. */
function siteHost(hostname: string): string {
  let h = hostname.toLowerCase().replace(/\.$/, '');
  for (;;) {
    const m = /^(www|m|mobile|web|touch|de|en|fr|es|pt|br|it|ja|us|uk)\.(.+\..+)$/.exec(h);
    if (!m || HOST_RULES[h]) return h;
    h = m[2];
  }
}

function pathSegments(pathname: string): string[] {
  return pathname
    .split('/')
    .filter((s) => s !== '')
    .map((s) => {
      try {
        return decodeURIComponent(s);
      } catch {
        throw invalid('malformed');
      }
    });
}

/** True when the path's last segment ends with one of MEDIA_EXTENSIONS (case-insensitive). */
export function hasMediaExtension(pathname: string): boolean {
  let p: string;
  try {
    p = decodeURIComponent(pathname).toLowerCase();
  } catch {
    return false;
  }
  return MEDIA_EXTENSIONS.some((ext) => p.endsWith(ext) && p.length > ext.length && !p.endsWith(`/${ext}`));
}

/** Parses `raw` as an absolute http(s) URL without credentials, or throws 422 INVALID_URL. */
export function parseHttpUrl(raw: unknown): URL {
  if (typeof raw !== 'string') throw invalid('malformed');
  const s = raw.trim();
  if (s === '' || s.length > MAX_URL_LENGTH || /[\s\u0000-\u001f\u007f]/.test(s)) throw invalid('malformed');
  let url: URL;
  try {
    url = new URL(s);
  } catch {
    throw invalid('malformed');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalid('scheme');
  if (url.username !== '' || url.password !== '') throw invalid('credentials');
  const host = url.hostname.replace(/\.$/, '');
  if (host === '' || host.startsWith('.') || host.includes('..')) throw invalid('malformed');
  return url;
}

export function classifyLink(raw: string): LinkClassification {
  const url = parseHttpUrl(raw);
  const host = siteHost(url.hostname);
  const rule = HOST_RULES[host];
  if (rule) {
    const segs = pathSegments(url.pathname);
    return rule({ host, segs, q: url.searchParams, url });
  }
  if (hasMediaExtension(url.pathname)) {
    url.hash = '';
    return { kind: 'direct', url: url.toString() };
  }
  throw invalid('unsupported_host');
}

/** The platform names classifyLink can answer with `kind: 'platform'`. */
export function isKnownPlatform(name: string): name is Platform {
  return (PLATFORMS as readonly string[]).includes(name);
}
