import { CutroomError, type Post } from '@cutroom/sdk/browser';
import {
  LIMITS,
  METADATA_DEFAULTS,
  REQUIRED_METADATA,
  TIKTOK_PRIVACY,
  YOUTUBE_PRIVACY,
  countHashtags,
  countMentions,
  isPublishPlatform,
  utf8Length,
  type PublishPlatform,
} from '../../src/shared/publish-limits.js';

/**
 * What the publish form asks per network and how the Posts page names states: the limits are the
 * service's own (src/shared/publish-limits.ts, the table POST /posts checks), only the words are here.
 */

type PostItem = Post['items'][number];

export const NETWORK_NAMES: Record<PublishPlatform, string> = {
  local: 'This service',
  youtube: 'YouTube',
  tiktok: 'TikTok',
  instagram: 'Instagram',
};

export function networkName(platform: string): string {
  return isPublishPlatform(platform) ? NETWORK_NAMES[platform] : platform;
}

/** The words of an item's published link: a network's page, or the file this service keeps (`local`). */
export function publishedLinkText(platform: string): string {
  return platform === 'local' ? 'Open the published video' : `See it on ${networkName(platform)}`;
}

export type TextField = {
  kind: 'text';
  key: string;
  label: string;
  multiline: boolean;
  limit: number;
  /** YouTube limits its description in UTF-8 bytes; everything else counts characters. */
  unit: 'characters' | 'bytes';
  /** Instagram also counts hashtags and @mentions in its caption. */
  tagLimits?: { hashtags: number; mentions: number };
};
export type ChoiceField = { kind: 'choice'; key: string; label: string; values: readonly string[]; names: Record<string, string> };
export type PublishField = TextField | ChoiceField;

const YOUTUBE_PRIVACY_NAMES: Record<(typeof YOUTUBE_PRIVACY)[number], string> = {
  public: 'Public',
  unlisted: 'Unlisted (anyone with the link)',
  private: 'Private',
};
const TIKTOK_PRIVACY_NAMES: Record<(typeof TIKTOK_PRIVACY)[number], string> = {
  PUBLIC_TO_EVERYONE: 'Everyone',
  MUTUAL_FOLLOW_FRIENDS: 'Friends (followers you follow back)',
  FOLLOWER_OF_CREATOR: 'Followers',
  SELF_ONLY: 'Only me',
};

/** The fields the form shows per network, in the order the service checks them. */
export const PUBLISH_FIELDS: Record<PublishPlatform, PublishField[]> = {
  local: [
    { kind: 'text', key: 'title', label: 'Title', multiline: false, limit: LIMITS.local.title, unit: 'characters' },
    { kind: 'text', key: 'caption', label: 'Caption', multiline: true, limit: LIMITS.local.caption, unit: 'characters' },
  ],
  youtube: [
    { kind: 'text', key: 'title', label: 'Title', multiline: false, limit: LIMITS.youtube.title, unit: 'characters' },
    { kind: 'text', key: 'description', label: 'Description', multiline: true, limit: LIMITS.youtube.descriptionBytes, unit: 'bytes' },
    { kind: 'choice', key: 'privacyStatus', label: 'Privacy', values: YOUTUBE_PRIVACY, names: YOUTUBE_PRIVACY_NAMES },
  ],
  tiktok: [
    { kind: 'text', key: 'title', label: 'Caption', multiline: true, limit: LIMITS.tiktok.title, unit: 'characters' },
    { kind: 'choice', key: 'privacyLevel', label: 'Who can watch', values: TIKTOK_PRIVACY, names: TIKTOK_PRIVACY_NAMES },
  ],
  instagram: [
    {
      kind: 'text',
      key: 'caption',
      label: 'Caption',
      multiline: true,
      limit: LIMITS.instagram.caption,
      unit: 'characters',
      tagLimits: { hashtags: LIMITS.instagram.hashtags, mentions: LIMITS.instagram.mentions },
    },
  ],
};

export function isRequired(platform: PublishPlatform, key: string): boolean {
  return REQUIRED_METADATA[platform].includes(key);
}

/** The form's starting values: the clip's title where a title is asked, the network's defaults. */
export function startingValues(platform: PublishPlatform, title: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of PUBLISH_FIELDS[platform]) {
    const d = METADATA_DEFAULTS[platform][f.key];
    if (typeof d === 'string') out[f.key] = d;
    else if (f.kind === 'text' && f.key === 'title' && !f.multiline) out[f.key] = title.slice(0, f.limit);
    else out[f.key] = '';
  }
  return out;
}

/** The network's own entry of a target's `metadata`: what was filled in, empty fields left out. */
export function networkFields(platform: PublishPlatform, values: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of PUBLISH_FIELDS[platform]) if (values[f.key]) out[f.key] = values[f.key];
  return out;
}

/** "87 characters left", "12 bytes too many"; Instagram adds the hashtags and mentions left. */
export function leftText(f: TextField, value: string): { text: string; over: boolean } {
  const say = (left: number, unit: string) => `${Math.abs(left)} ${unit}${Math.abs(left) === 1 ? '' : 's'} ${left >= 0 ? 'left' : 'too many'}`;
  const left = f.limit - (f.unit === 'bytes' ? utf8Length(value) : value.length);
  const parts = [say(left, f.unit === 'bytes' ? 'byte' : 'character')];
  let over = left < 0;
  if (f.tagLimits) {
    const tags = f.tagLimits.hashtags - countHashtags(value);
    const mentions = f.tagLimits.mentions - countMentions(value);
    parts.push(say(tags, 'hashtag'), say(mentions, 'mention'));
    over ||= tags < 0 || mentions < 0;
  }
  return { text: parts.join(' · '), over };
}

/** The label of a network-qualified field of INVALID_METADATA (`youtube.title` → "YouTube: Title"). */
export function fieldName(qualified: string): string {
  const [platform, key] = qualified.split('.');
  if (!isPublishPlatform(platform)) return qualified;
  const f = PUBLISH_FIELDS[platform].find((x) => x.key === key);
  return f ? `${NETWORK_NAMES[platform]}: ${f.label}` : qualified;
}

/** The post's state in words: a pending post with a time to come is "Scheduled". */
export function postStatusName(p: Post, now = Date.now()): string {
  switch (p.status) {
    case 'pending':
      return p.scheduled_at && Date.parse(p.scheduled_at) > now ? 'Scheduled' : 'Waiting to publish';
    case 'processing':
      return 'Publishing';
    case 'completed':
      return 'Published';
    case 'partial':
      return 'Partly published';
    case 'failed':
      return 'Failed';
  }
}

export function itemStatusName(status: PostItem['status']): string {
  return { pending: 'Waiting', processing: 'Publishing', published: 'Published', failed: 'Failed' }[status];
}

export function badgeOf(status: string): string {
  return status === 'completed' || status === 'published' ? 'badge completed' : status === 'failed' || status === 'partial' ? 'badge failed' : 'badge';
}

/** What an item is called: its title (or caption, description) as published. */
export function itemTitle(item: PostItem): string {
  const own = item.metadata[item.platform];
  if (own && typeof own === 'object') {
    const m = own as Record<string, unknown>;
    for (const k of ['title', 'caption', 'description']) if (typeof m[k] === 'string' && m[k]) return m[k] as string;
  }
  return 'Untitled';
}

/** The day a post belongs to on the calendar: its schedule, else when it went out, else when it was made. */
export function postDate(p: Post): Date {
  const published = p.items
    .map((i) => i.published_at)
    .filter((x): x is string => !!x)
    .sort()[0];
  return new Date(p.scheduled_at ?? published ?? p.created_at);
}

/** A Date as a `datetime-local` value in the person's own time zone. */
export function localInputValue(d: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** The person's time zone, for the hint under a date-time field. */
export function timeZoneName(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'your local time';
}

/**
 * A refusal of `scheduled_at` (400 VALIDATION_ERROR, rule `future`) in the words of the field the
 * person filled in; null for any other error (shown with the SDK's reason).
 */
export function scheduleRefusal(err: unknown, fieldLabel: string): string | null {
  if (!(err instanceof CutroomError) || err.code !== 'VALIDATION_ERROR' || !Array.isArray(err.extra?.errors)) return null;
  const past = (err.extra.errors as Array<{ field?: unknown; rule?: unknown }>).some((e) => e.field === 'scheduled_at' && e.rule === 'future');
  return past ? `The time in “${fieldLabel}” has passed: pick a time to come. (VALIDATION_ERROR)` : null;
}
