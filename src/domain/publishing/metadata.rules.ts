/**
 * Per-network metadata rules of POST /posts (spec: Conventions, the `metadata` exception; 400
 * INVALID_METADATA with a network-qualified `extra.field`). Pure: no I/O. docs/publishing.md lists them.
 *
 * Decisions:
 * - A target's `metadata` is keyed by lowercase network name; only the entry of the target's own network
 *   is checked and used. Entries for other networks are allowed and ignored, so one metadata object can
 *   be sent to every target of a video.
 * - Inside a network's entry, keys are the network's own (camelCase allowed) and are forwarded untouched.
 *   Known keys are checked (type, length, enum); unknown keys are not an error: they are kept with the
 *   item and each adapter sends only the keys its network understands (docs/publishing.md).
 * - Lengths count UTF-16 code units (JavaScript `length`, like TikTok's and Instagram's limits), except
 *   YouTube's description, which YouTube limits in UTF-8 bytes.
 */

import {
  LIMITS,
  REQUIRED_METADATA,
  TIKTOK_PRIVACY,
  YOUTUBE_LICENSES,
  YOUTUBE_PRIVACY,
  countHashtags,
  countMentions,
  isPublishPlatform,
  utf8Length,
  youtubeTagsLength,
  type PublishPlatform,
  METADATA_DEFAULTS,
} from '../../shared/publish-limits.js';

// The limits, enums and counters are one table with the Studio's publish form (src/shared/publish-limits.ts).
export {
  LIMITS,
  METADATA_DEFAULTS,
  PUBLISH_PLATFORMS,
  REQUIRED_METADATA,
  TIKTOK_PRIVACY,
  YOUTUBE_LICENSES,
  YOUTUBE_PRIVACY,
  countHashtags,
  countMentions,
  isPublishPlatform,
  youtubeTagsLength,
  type PublishPlatform,
} from '../../shared/publish-limits.js';

export interface MetadataViolation {
  /** Network-qualified field, e.g. `youtube.title`; the network name alone when its entry is not an object. */
  field: string;
}

type Fields = Record<string, unknown>;
type Check = (value: unknown, all: Fields) => boolean;
interface Rule {
  check: Check;
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const str =
  (max: number, opts: { nonEmpty?: boolean; noAngle?: boolean } = {}): Check =>
  (v) =>
    typeof v === 'string' && v.length <= max && (!opts.nonEmpty || v.trim().length > 0) && (!opts.noAngle || !/[<>]/.test(v));
const bool: Check = (v) => typeof v === 'boolean';
const oneOf =
  (values: readonly string[]): Check =>
  (v) =>
    typeof v === 'string' && values.includes(v);
const nonNegativeInt: Check = (v) => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const isoInstant = (v: unknown): boolean => typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(v) && !Number.isNaN(Date.parse(v));
const languageTag: Check = (v) => typeof v === 'string' && /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/.test(v);

const youtubeTags: Check = (v) =>
  Array.isArray(v) &&
  v.every((t) => typeof t === 'string' && t.trim().length > 0 && !/[<>,]/.test(t)) &&
  youtubeTagsLength(v as string[]) <= LIMITS.youtube.tagsTotal;

const youtubeDescription: Check = (v) => typeof v === 'string' && !/[<>]/.test(v) && utf8Length(v) <= LIMITS.youtube.descriptionBytes;

const instagramCaption: Check = (v) =>
  typeof v === 'string' &&
  v.length <= LIMITS.instagram.caption &&
  countHashtags(v) <= LIMITS.instagram.hashtags &&
  countMentions(v) <= LIMITS.instagram.mentions;

const httpUrl: Check = (v) => {
  if (typeof v !== 'string') return false;
  try {
    const u = new URL(v);
    return u.protocol === 'https:' || u.protocol === 'http:';
  } catch {
    return false;
  }
};

/** Checked in this order; the first violation is reported. */
const RULES: Record<PublishPlatform, Record<string, Rule>> = {
  local: {
    title: { check: str(LIMITS.local.title, { nonEmpty: true }) },
    caption: { check: str(LIMITS.local.caption) },
  },
  youtube: {
    title: { check: str(LIMITS.youtube.title, { nonEmpty: true, noAngle: true }) },
    description: { check: youtubeDescription },
    privacyStatus: { check: oneOf(YOUTUBE_PRIVACY) },
    categoryId: { check: (v) => typeof v === 'string' && /^\d{1,4}$/.test(v) },
    tags: { check: youtubeTags },
    madeForKids: { check: bool },
    defaultLanguage: { check: languageTag },
    defaultAudioLanguage: { check: languageTag },
    embeddable: { check: bool },
    publicStatsViewable: { check: bool },
    license: { check: oneOf(YOUTUBE_LICENSES) },
    containsSyntheticMedia: { check: bool },
    // YouTube only schedules private videos: `publishAt` needs privacyStatus private (or the default).
    publishAt: { check: (v, all) => isoInstant(v) && (all.privacyStatus === undefined || all.privacyStatus === 'private') },
  },
  tiktok: {
    privacyLevel: { check: oneOf(TIKTOK_PRIVACY) },
    title: { check: str(LIMITS.tiktok.title) },
    disableComment: { check: bool },
    disableDuet: { check: bool },
    disableStitch: { check: bool },
    videoCoverTimestampMs: { check: nonNegativeInt },
    brandContentToggle: { check: bool },
    brandOrganicToggle: { check: bool },
    isAigc: { check: bool },
  },
  instagram: {
    caption: { check: instagramCaption },
    shareToFeed: { check: bool },
    thumbOffset: { check: nonNegativeInt },
    coverUrl: { check: httpUrl },
    locationId: { check: (v) => typeof v === 'string' && /^\d+$/.test(v) },
    audioName: { check: str(LIMITS.instagram.audioName, { nonEmpty: true }) },
    collaborators: {
      check: (v) => Array.isArray(v) && v.length <= LIMITS.instagram.collaborators && v.every((c) => typeof c === 'string' && /^[A-Za-z0-9._]{1,30}$/.test(c)),
    },
  },
};

/** The keys each network's rules know (the rest are accepted and left alone). */
export function knownMetadataKeys(platform: PublishPlatform): string[] {
  return Object.keys(RULES[platform]);
}

/**
 * Checks one network's own fields (the value of `metadata.<platform>`). `null` when valid; otherwise the
 * first failing field, network-qualified (`youtube.title`). A key set to `undefined` counts as absent; `null`
 * is a value and fails its type check. An unknown platform, or an entry that is not an object, reports
 * `{ field: platform }`.
 */
export function validateMetadata(platform: string, metadata: unknown): MetadataViolation | null {
  if (!isPublishPlatform(platform) || !isPlainObject(metadata)) return { field: platform };
  for (const [key, rule] of Object.entries(RULES[platform])) {
    const present = Object.prototype.hasOwnProperty.call(metadata, key) && metadata[key] !== undefined;
    if (!present) {
      if (REQUIRED_METADATA[platform].includes(key)) return { field: `${platform}.${key}` };
      continue;
    }
    if (!rule.check(metadata[key], metadata)) return { field: `${platform}.${key}` };
  }
  return null;
}

/**
 * Checks a POST /posts target's whole `metadata` (keyed by network) for a connection of `platform`.
 * Absent metadata or an absent entry counts as `{}` (so required fields report `youtube.title`).
 * `metadata` that is not an object reports `{ field: 'metadata' }`.
 */
export function validateTargetMetadata(platform: string, metadata: unknown): MetadataViolation | null {
  if (metadata === undefined || metadata === null) return validateMetadata(platform, {});
  if (!isPlainObject(metadata)) return { field: 'metadata' };
  const own = metadata[platform];
  return validateMetadata(platform, own === undefined ? {} : own);
}

/** The network's own fields of a target's metadata (`{}` when absent); validate first. */
export function networkMetadata(platform: string, metadata: unknown): Record<string, unknown> {
  if (!isPlainObject(metadata)) return {};
  const own = metadata[platform];
  return isPlainObject(own) ? own : {};
}

/** The fields as published: the caller's keys untouched plus the defaults of absent ones. */
export function applyMetadataDefaults(platform: string, metadata: Record<string, unknown>): Record<string, unknown> {
  const defaults = isPublishPlatform(platform) ? METADATA_DEFAULTS[platform] : {};
  const out: Record<string, unknown> = { ...metadata };
  for (const [k, v] of Object.entries(defaults)) if (out[k] === undefined) out[k] = v;
  return out;
}
