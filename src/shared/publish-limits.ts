/**
 * The publishing networks' own limits on a post's metadata (docs/publishing.md "Metadata"), one table for
 * both sides: the service checks POST /posts and PATCH /posts/{id} against it
 * (src/domain/publishing/metadata.rules.ts, 400 INVALID_METADATA), and the Studio's publish form shows
 * what is left of each as the person types. Pure: no Node module, no I/O.
 *
 * Lengths count UTF-16 code units (JavaScript `length`, like TikTok's and Instagram's limits), except
 * YouTube's description, which YouTube limits in UTF-8 bytes (`utf8Length`).
 */

export const PUBLISH_PLATFORMS = ['local', 'youtube', 'tiktok', 'instagram'] as const;
export type PublishPlatform = (typeof PUBLISH_PLATFORMS)[number];

export const LIMITS = {
  local: { title: 100, caption: 2200 },
  youtube: { title: 100, descriptionBytes: 5000, tagsTotal: 500 },
  tiktok: { title: 2200 },
  instagram: { caption: 2200, hashtags: 30, mentions: 20, collaborators: 3, audioName: 100 },
} as const;

/** The fields each network needs (a missing one is 400 INVALID_METADATA on `<network>.<field>`). */
export const REQUIRED_METADATA: Record<PublishPlatform, readonly string[]> = {
  local: ['title'],
  youtube: ['title'],
  tiktok: ['privacyLevel'],
  instagram: [],
};

export const YOUTUBE_PRIVACY = ['public', 'unlisted', 'private'] as const;
export const YOUTUBE_LICENSES = ['youtube', 'creativeCommon'] as const;
export const TIKTOK_PRIVACY = ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'FOLLOWER_OF_CREATOR', 'SELF_ONLY'] as const;

/** Values applied by the adapters when a field is absent; `applyMetadataDefaults` shows them on the item. */
export const METADATA_DEFAULTS: Record<PublishPlatform, Record<string, unknown>> = {
  local: {},
  youtube: { privacyStatus: 'private' },
  tiktok: {},
  instagram: { shareToFeed: true },
};

export function isPublishPlatform(p: string): p is PublishPlatform {
  return (PUBLISH_PLATFORMS as readonly string[]).includes(p);
}

/** Bytes of the text in UTF-8 (YouTube's description limit). */
export function utf8Length(text: string): number {
  return new TextEncoder().encode(text).length;
}

/** YouTube counts a tag with a space as quoted (+2) and separates tags with commas. */
export function youtubeTagsLength(tags: readonly string[]): number {
  let total = Math.max(0, tags.length - 1);
  for (const t of tags) total += t.length + (t.includes(' ') ? 2 : 0);
  return total;
}

/** `#tag` words (letters, digits, underscore, any script); `##` and a lone `#` are not counted. */
export function countHashtags(text: string): number {
  return (text.match(/(^|[^\p{L}\p{N}_&#/])#[\p{L}\p{N}_]+/gu) ?? []).length;
}

export function countMentions(text: string): number {
  return (text.match(/(^|[^\p{L}\p{N}_.@])@[\p{L}\p{N}_.]+/gu) ?? []).length;
}
