import { DomainError } from '../errors.js';
import { invalidUrl, type UrlRefusal } from './url-refusals.js';

/**
 * Per-platform URL rules used by classifyLink (src/domain/videos/link-classifier.ts): each rule reads
 * the path of a link on a known host and answers a video with its canonical URL, or throws
 * PLAYLIST_URL, CHANNEL_URL, SHORTS_NOT_SUPPORTED or INVALID_URL. Pure. Table: docs/sources.md.
 */

export type LinkClassification = { kind: 'platform'; platform: string; canonicalUrl: string } | { kind: 'direct'; url: string };

export const PLATFORMS = ['youtube', 'twitch', 'vimeo', 'tiktok', 'instagram', 'x', 'facebook', 'kick', 'rumble', 'dailymotion', 'streamable'] as const;
export type Platform = (typeof PLATFORMS)[number];

export type Parts = { host: string; segs: string[]; q: URLSearchParams; url: URL };
export type Rule = (p: Parts) => LinkClassification;

/** 422 INVALID_URL: by default a page of a known platform that is not one video. */
export const invalid = (reason: UrlRefusal = 'unsupported_link') => invalidUrl(reason);
const playlist = () => new DomainError('PLAYLIST_URL');
const channel = () => new DomainError('CHANNEL_URL');

function video(platform: Platform, canonicalUrl: string): LinkClassification {
  return { kind: 'platform', platform, canonicalUrl };
}

const YT_ID = /^[A-Za-z0-9_-]{11}$/;
const DIGITS = /^\d+$/;
const SLUG = /^[A-Za-z0-9_.-]+$/;

function need(ok: boolean): void {
  if (!ok) throw invalid();
}

// ---------------------------------------------------------------- YouTube

const YT_RESERVED = new Set([
  'feed',
  'results',
  'account',
  'premium',
  'gaming',
  'about',
  'hashtag',
  'playables',
  'signin',
  'logout',
  'upload',
  'redirect',
  't',
  'howyoutubeworks',
  'creators',
  'kids',
  'music',
  'paid_memberships',
  'reporthistory',
  'supported_browsers',
]);

function ytWatch(id: string | null | undefined): LinkClassification {
  need(!!id && YT_ID.test(id));
  return video('youtube', `https://www.youtube.com/watch?v=${id}`);
}

const youtube: Rule = ({ segs, q }) => {
  const [a, b] = segs;
  if (a === undefined) {
    if (q.get('v')) return ytWatch(q.get('v'));
    throw invalid();
  }
  if (a === 'watch') {
    if (q.get('v')) return ytWatch(q.get('v'));
    if (q.get('list')) throw playlist();
    throw invalid();
  }
  if (a === 'playlist' || a === 'watch_videos') throw playlist();
  if (a === 'shorts') {
    need(!!b && YT_ID.test(b));
    throw new DomainError('SHORTS_NOT_SUPPORTED');
  }
  if (a === 'live' || a === 'embed' || a === 'v' || a === 'e') {
    if (a === 'embed' && b === 'videoseries') throw playlist();
    return ytWatch(b);
  }
  if (a === 'clip') {
    need(!!b && SLUG.test(b));
    return video('youtube', `https://www.youtube.com/clip/${b}`);
  }
  if (a === 'channel' || a === 'c' || a === 'user') {
    need(!!b);
    throw channel();
  }
  if (a.startsWith('@')) {
    need(a.length > 1);
    throw channel();
  }
  if (YT_RESERVED.has(a.toLowerCase())) throw invalid();
  // Legacy custom channel URLs: youtube.com/<name>[/videos|/streams|...].
  if (/^[A-Za-z0-9_-]+$/.test(a)) throw channel();
  throw invalid();
};

const youtuBe: Rule = ({ segs }) => {
  need(segs.length === 1);
  return ytWatch(segs[0]);
};

// ---------------------------------------------------------------- Twitch

const TWITCH_RESERVED = new Set([
  'directory',
  'search',
  'settings',
  'p',
  'downloads',
  'jobs',
  'subscriptions',
  'inventory',
  'wallet',
  'drops',
  'friends',
  'messages',
  'turbo',
  'prime',
  'login',
  'signup',
  'store',
  'following',
  'moderator',
  'popout',
  'broadcast',
]);
const TWITCH_LOGIN = /^[A-Za-z0-9_]{1,25}$/;

const twitch: Rule = ({ segs, q }) => {
  const [a, b, c] = segs;
  if (a === undefined) throw invalid();
  if (a === 'videos') {
    need(!!b && DIGITS.test(b));
    return video('twitch', `https://www.twitch.tv/videos/${b}`);
  }
  if (a === 'collections') throw playlist();
  if (TWITCH_RESERVED.has(a.toLowerCase())) throw invalid();
  need(TWITCH_LOGIN.test(a));
  if (b === 'clip') {
    need(!!c && SLUG.test(c));
    return video('twitch', `https://clips.twitch.tv/${c}`);
  }
  if (b === 'v' || b === 'video') {
    need(!!c && DIGITS.test(c));
    return video('twitch', `https://www.twitch.tv/videos/${c}`);
  }
  if (b === undefined && q.get('clip')) return twitchClip(q.get('clip'));
  // twitch.tv/<channel>, /<channel>/videos, /clips, /about, /schedule: the channel itself (or its live broadcast).
  throw channel();
};

function twitchClip(slug: string | null | undefined): LinkClassification {
  need(!!slug && SLUG.test(slug));
  return video('twitch', `https://clips.twitch.tv/${slug}`);
}

const twitchClips: Rule = ({ segs, q }) => {
  if (segs[0] === 'embed') return twitchClip(q.get('clip'));
  need(segs.length === 1);
  return twitchClip(segs[0]);
};

// ---------------------------------------------------------------- Vimeo

const vimeo: Rule = ({ segs }) => {
  const [a, b, c, d] = segs;
  if (a === undefined) throw invalid();
  if (DIGITS.test(a)) {
    // vimeo.com/<id> or vimeo.com/<id>/<privacy hash>
    if (b && /^[0-9a-f]{6,}$/i.test(b)) return video('vimeo', `https://vimeo.com/${a}/${b}`);
    return video('vimeo', `https://vimeo.com/${a}`);
  }
  if (a === 'album' || a === 'showcase') throw playlist();
  if (a === 'channels') {
    need(!!b);
    if (c && DIGITS.test(c)) return video('vimeo', `https://vimeo.com/${c}`);
    throw channel();
  }
  if (a === 'groups') {
    need(!!b);
    if (c === 'videos' && d && DIGITS.test(d)) return video('vimeo', `https://vimeo.com/${d}`);
    throw channel();
  }
  if (a === 'ondemand') {
    need(!!b && SLUG.test(b));
    return video('vimeo', `https://vimeo.com/ondemand/${b}`);
  }
  if (['search', 'watch', 'categories', 'features', 'upgrade', 'log_in', 'join', 'blog', 'help', 'solutions', 'enterprise'].includes(a)) {
    throw invalid();
  }
  if (a === 'user' || /^[A-Za-z0-9_-]+$/.test(a)) {
    // vimeo.com/<user>/<id> is a video of that user; anything else under a user name is the profile.
    if (b && DIGITS.test(b)) return video('vimeo', `https://vimeo.com/${b}`);
    if (b === 'videos' || b === 'likes' || b === undefined || a === 'user') throw channel();
    if (b === 'albums' || b === 'showcases') throw playlist();
    throw channel();
  }
  throw invalid();
};

const vimeoPlayer: Rule = ({ segs }) => {
  need(segs[0] === 'video' && !!segs[1] && DIGITS.test(segs[1]));
  return video('vimeo', `https://vimeo.com/${segs[1]}`);
};

// ---------------------------------------------------------------- TikTok

const tiktok: Rule = ({ segs }) => {
  const [a, b, c] = segs;
  if (a === undefined) throw invalid();
  if (a.startsWith('@')) {
    need(a.length > 1);
    if (b === 'video') {
      need(!!c && DIGITS.test(c));
      return video('tiktok', `https://www.tiktok.com/${a}/video/${c}`);
    }
    if (b === undefined || b === 'live') throw channel();
    throw invalid(); // photo posts and the rest carry no video
  }
  if (a === 't') {
    need(!!b && SLUG.test(b));
    return video('tiktok', `https://www.tiktok.com/t/${b}`);
  }
  if (a === 'embed') {
    const id = b === 'v2' ? c : b;
    need(!!id && DIGITS.test(id));
    return video('tiktok', `https://www.tiktok.com/embed/v2/${id}`);
  }
  if (a === 'v' && b) {
    const id = b.replace(/\.html$/, '');
    need(DIGITS.test(id));
    return video('tiktok', `https://www.tiktok.com/embed/v2/${id}`);
  }
  if (a === 'tag' || a === 'music') throw playlist();
  throw invalid();
};

const tiktokShort: Rule = ({ segs, host }) => {
  need(segs.length === 1 && SLUG.test(segs[0]));
  return video('tiktok', `https://${host}/${segs[0]}/`);
};

// ---------------------------------------------------------------- Instagram

const IG_RESERVED = new Set(['explore', 'accounts', 'direct', 'stories', 'about', 'developer', 'legal', 'web', 'api', 'challenge']);

const instagram: Rule = ({ segs }) => {
  let [a, b] = segs;
  const c = segs[2];
  if (a === undefined) throw invalid();
  // instagram.com/<user>/reel/<code> and /<user>/p/<code> are the same posts as /reel/<code>.
  if (b && ['p', 'reel', 'reels', 'tv'].includes(b) && c && !['p', 'reel', 'reels', 'tv'].includes(a)) {
    [a, b] = [b, c];
  }
  if (a === 'p' || a === 'reel' || a === 'reels' || a === 'tv') {
    if (a === 'reels' && b === undefined) throw invalid();
    need(!!b && /^[A-Za-z0-9_-]+$/.test(b));
    const kind = a === 'reels' ? 'reel' : a;
    return video('instagram', `https://www.instagram.com/${kind}/${b}/`);
  }
  if (IG_RESERVED.has(a)) throw invalid();
  if (/^[A-Za-z0-9_.]+$/.test(a)) throw channel();
  throw invalid();
};

// ---------------------------------------------------------------- X / Twitter

const X_RESERVED = new Set([
  'home',
  'explore',
  'search',
  'notifications',
  'messages',
  'settings',
  'login',
  'logout',
  'signup',
  'compose',
  'hashtag',
  'tos',
  'privacy',
  'intent',
  'share',
  'account',
]);

const x: Rule = ({ segs }) => {
  const [a, b, c] = segs;
  if (a === undefined) throw invalid();
  if (a === 'i') {
    if ((b === 'status' || b === 'web') && segs.includes('status')) {
      const id = segs[segs.indexOf('status') + 1];
      need(!!id && DIGITS.test(id));
      return video('x', `https://x.com/i/status/${id}`);
    }
    if (b === 'broadcasts' || b === 'spaces') {
      need(!!c && /^[A-Za-z0-9]+$/.test(c));
      return video('x', `https://x.com/i/${b}/${c}`);
    }
    if (b === 'lists') throw playlist();
    throw invalid();
  }
  if (X_RESERVED.has(a.toLowerCase())) throw invalid();
  need(/^[A-Za-z0-9_]{1,15}$/.test(a));
  if (b === 'status' || b === 'statuses') {
    need(!!c && DIGITS.test(c));
    return video('x', `https://x.com/${a}/status/${c}`);
  }
  if (b === 'lists') throw playlist();
  // x.com/<user>, /media, /with_replies, /likes: the profile.
  throw channel();
};

// ---------------------------------------------------------------- Facebook

const FB_RESERVED = new Set([
  'groups',
  'events',
  'marketplace',
  'gaming',
  'login',
  'help',
  'settings',
  'messages',
  'notifications',
  'photo',
  'photo.php',
  'photos',
  'stories',
  'hashtag',
  'search',
  'policies',
  'privacy',
]);

const facebook: Rule = ({ segs, q }) => {
  const [a, b, c, d] = segs;
  if (a === undefined) throw invalid();
  if (a === 'watch') {
    const v = q.get('v');
    if (v) {
      need(DIGITS.test(v));
      return video('facebook', `https://www.facebook.com/watch/?v=${v}`);
    }
    throw invalid();
  }
  if (a === 'video.php' || a === 'video') {
    const v = q.get('v') ?? q.get('video_id');
    need(!!v && DIGITS.test(v));
    return video('facebook', `https://www.facebook.com/watch/?v=${v}`);
  }
  if (a === 'reel' || a === 'reels') {
    need(!!b && DIGITS.test(b));
    return video('facebook', `https://www.facebook.com/reel/${b}`);
  }
  if (a === 'share') {
    need((b === 'v' || b === 'r') && !!c && SLUG.test(c));
    return video('facebook', `https://www.facebook.com/share/${b}/${c}/`);
  }
  if (a === 'profile.php') throw channel();
  if (FB_RESERVED.has(a)) throw invalid();
  need(/^[A-Za-z0-9_.-]+$/.test(a));
  if (b === 'videos') {
    // /<page>/videos/<id> or /<page>/videos/<slug>/<id>
    const id = c && DIGITS.test(c) ? c : d && DIGITS.test(d) ? d : undefined;
    if (id) return video('facebook', `https://www.facebook.com/watch/?v=${id}`);
    if (c === undefined) throw channel();
    throw invalid();
  }
  if (b === 'playlist' || b === 'video_playlists') throw playlist();
  if (b === undefined || ['reels', 'live_videos', 'about', 'posts', 'videos_by'].includes(b)) throw channel();
  throw invalid();
};

const fbWatch: Rule = ({ segs }) => {
  need(segs.length === 1 && SLUG.test(segs[0]));
  return video('facebook', `https://fb.watch/${segs[0]}/`);
};

// ---------------------------------------------------------------- Kick

const KICK_RESERVED = new Set([
  'categories',
  'category',
  'browse',
  'search',
  'following',
  'settings',
  'dashboard',
  'subscriptions',
  'legal',
  'privacy-policy',
  'terms-of-service',
  'community-guidelines',
]);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const kick: Rule = ({ segs, q }) => {
  const [a, b, c] = segs;
  if (a === undefined) throw invalid();
  if (a === 'video') {
    need(!!b && UUID.test(b));
    return video('kick', `https://kick.com/video/${b}`);
  }
  if (KICK_RESERVED.has(a)) throw invalid();
  need(/^[A-Za-z0-9_-]+$/.test(a));
  if ((b === 'videos' || b === 'video') && c) {
    need(UUID.test(c));
    return video('kick', `https://kick.com/${a}/videos/${c}`);
  }
  if ((b === 'clips' || b === 'clip') && c) {
    need(SLUG.test(c));
    return video('kick', `https://kick.com/${a}/clips/${c}`);
  }
  const clip = q.get('clip');
  if (b === undefined && clip) {
    need(SLUG.test(clip));
    return video('kick', `https://kick.com/${a}/clips/${clip}`);
  }
  throw channel();
};

// ---------------------------------------------------------------- Rumble

const rumble: Rule = ({ segs }) => {
  const [a, b] = segs;
  if (a === undefined) throw invalid();
  const m = /^(v[0-9a-z]+)(-[^/]*)?\.html$/i.exec(a);
  if (m && segs.length === 1) return video('rumble', `https://rumble.com/${a}`);
  if (a === 'embed') {
    need(!!b && /^v[0-9a-z]+$/i.test(b));
    return video('rumble', `https://rumble.com/embed/${b}/`);
  }
  if (a === 'c' || a === 'user') {
    need(!!b);
    throw channel();
  }
  if (a === 'playlists') throw playlist();
  throw invalid();
};

// ---------------------------------------------------------------- Dailymotion, Streamable

const dailymotion: Rule = ({ segs }) => {
  const [a, b] = segs;
  if (a === undefined) throw invalid();
  if (a === 'video' || a === 'embed') {
    const id = a === 'embed' ? segs[2] : b;
    need(!!id && /^[a-z0-9]+$/i.test(id));
    return video('dailymotion', `https://www.dailymotion.com/video/${id}`);
  }
  if (a === 'playlist') throw playlist();
  if (['search', 'signin', 'signup', 'us', 'legal', 'tv'].includes(a)) throw invalid();
  if (/^[A-Za-z0-9_-]+$/.test(a)) throw channel();
  throw invalid();
};

const daiLy: Rule = ({ segs }) => {
  need(segs.length === 1 && /^[a-z0-9]+$/i.test(segs[0]));
  return video('dailymotion', `https://www.dailymotion.com/video/${segs[0]}`);
};

const streamable: Rule = ({ segs }) => {
  const id = segs[0] === 'e' || segs[0] === 'o' || segs[0] === 's' ? segs[1] : segs[0];
  need(!!id && /^[a-z0-9]+$/i.test(id) && segs.length <= 2);
  return video('streamable', `https://streamable.com/${id}`);
};

// ---------------------------------------------------------------- dispatch

export const HOST_RULES: Record<string, Rule> = {
  'youtube.com': youtube,
  'music.youtube.com': youtube,
  'youtube-nocookie.com': youtube,
  'youtu.be': youtuBe,
  'twitch.tv': twitch,
  'clips.twitch.tv': twitchClips,
  'vimeo.com': vimeo,
  'player.vimeo.com': vimeoPlayer,
  'tiktok.com': tiktok,
  'vm.tiktok.com': tiktokShort,
  'vt.tiktok.com': tiktokShort,
  'instagram.com': instagram,
  'instagr.am': instagram,
  'x.com': x,
  'twitter.com': x,
  'facebook.com': facebook,
  'fb.com': facebook,
  'fb.watch': fbWatch,
  'kick.com': kick,
  'rumble.com': rumble,
  'dailymotion.com': dailymotion,
  'dai.ly': daiLy,
  'streamable.com': streamable,
};
