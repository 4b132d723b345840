import { isTagLine, parseAttributes, playlistLines, tagAttributeList } from '../net/m3u8-syntax.js';

/**
 * Reading of HLS playlists (RFC 8216): master or media, live or VOD, and the segments with their
 * keys, init sections and byte ranges. Lines and attribute lists are read as ffmpeg reads them
 * (src/adapters/net/m3u8-syntax.ts: CR, LF, CRLF and NUL end a line; quoted and unquoted values), so
 * the service never reads a different playlist than a media tool would. Pure.
 */

export interface HlsVariant {
  /** Absolute URL of the variant's media playlist. */
  uri: string;
  bandwidth: number;
  width?: number;
  height?: number;
  /** `AUDIO` group id: the variant's audio comes from that group's rendition when it has a URI. */
  audioGroup?: string;
}

/** An `#EXT-X-MEDIA:TYPE=AUDIO` rendition of a master playlist. */
export interface HlsAudioRendition {
  groupId: string;
  /** Absolute URL of its media playlist; absent when the audio is muxed into the variants. */
  uri?: string;
  isDefault: boolean;
}

export type HlsPlaylist =
  | { kind: 'master'; variants: HlsVariant[]; audio: HlsAudioRendition[] }
  | {
      kind: 'media';
      /** `#EXT-X-ENDLIST` present: the stream is complete (VOD). Without it the stream is still on air. */
      ended: boolean;
      playlistType?: 'VOD' | 'EVENT';
      /** Sum of the `#EXTINF` durations, seconds. */
      duration: number;
      /** Absolute URLs of the segments, keys (`#EXT-X-KEY`) and init sections (`#EXT-X-MAP`). */
      uris: string[];
      segmentCount: number;
    };

export interface ByteRange {
  /** First byte. */
  offset: number;
  length: number;
}

/** The `#EXT-X-KEY` that applies to a segment (never METHOD=NONE: then the segment has no key). */
export interface HlsKey {
  /** `AES-128`, `SAMPLE-AES`, `SAMPLE-AES-CTR`, … (only AES-128 with the identity key format is read). */
  method: string;
  /** Absolute URL of the key. */
  uri?: string;
  /** The 16-byte IV of the tag; absent: the segment's media sequence number (RFC 8216 5.2). */
  iv?: Buffer;
  /** `KEYFORMAT`, `identity` when absent. */
  keyFormat: string;
}

export interface HlsInitSection {
  uri: string;
  byteRange?: ByteRange;
  /** The key in effect where the `#EXT-X-MAP` tag stands. */
  key?: HlsKey;
}

export interface HlsSegment {
  uri: string;
  duration: number;
  /** Media sequence number (`#EXT-X-MEDIA-SEQUENCE` + position). */
  sequence: number;
  byteRange?: ByteRange;
  key?: HlsKey;
  map?: HlsInitSection;
}

export class HlsParseError extends Error {}

function absolute(uri: string, base: string): string {
  try {
    return new URL(uri.trim(), base).toString();
  } catch {
    throw new HlsParseError(`bad URI in playlist: ${uri}`);
  }
}

export function isHlsContentType(contentType: string | undefined): boolean {
  return !!contentType && /mpegurl/i.test(contentType);
}

/** `n[@o]` → the range; `o` absent: `defaultOffset`. */
function byteRange(value: string, defaultOffset: number | undefined): ByteRange {
  const m = /^\s*(\d+)(?:@(\d+))?\s*$/.exec(value);
  if (!m) throw new HlsParseError(`bad byte range ${value}`);
  const offset = m[2] !== undefined ? Number(m[2]) : defaultOffset;
  if (offset === undefined) throw new HlsParseError(`byte range ${value} without an offset after a segment without a range`);
  return { offset, length: Number(m[1]) };
}

function parseIv(value: string | undefined): Buffer | undefined {
  if (value === undefined) return undefined;
  const m = /^0[xX]([0-9a-fA-F]{1,32})$/.exec(value.trim());
  if (!m) throw new HlsParseError(`bad IV ${value}`);
  return Buffer.from(m[1].padStart(32, '0'), 'hex');
}

interface Scan {
  isMaster: boolean;
  variants: HlsVariant[];
  audio: HlsAudioRendition[];
  segments: HlsSegment[];
  /** Key and map URIs, in order, before the segment that uses them. */
  uris: string[];
  ended: boolean;
  playlistType?: 'VOD' | 'EVENT';
  duration: number;
}

function scan(text: string, baseUrl: string): Scan {
  const lines = playlistLines(text.replace(/^\uFEFF/, '')).filter((l) => l.trim() !== '');
  if (lines[0]?.trim() !== '#EXTM3U') throw new HlsParseError('not an HLS playlist (no #EXTM3U)');

  const s: Scan = { isMaster: false, variants: [], audio: [], segments: [], uris: [], ended: false, duration: 0 };
  let pendingVariant: Omit<HlsVariant, 'uri'> | null = null;
  let mediaSequence = 0;
  let extinf = 0;
  let range: string | undefined;
  // Byte after the last ranged segment of each URI (an `#EXT-X-BYTERANGE` without `@o` continues there).
  const rangeEnd = new Map<string, number>();
  let identityKey: HlsKey | undefined;
  let otherKey: HlsKey | undefined;
  let keysSinceSegment = false;
  let map: HlsInitSection | undefined;

  for (const line of lines.slice(1)) {
    if (isTagLine(line)) {
      const attrs = () => parseAttributes(tagAttributeList(line));
      if (line.startsWith('#EXT-X-STREAM-INF:')) {
        s.isMaster = true;
        const a = attrs();
        const [w, h] = (a.RESOLUTION ?? '').split('x').map(Number);
        pendingVariant = { bandwidth: Number(a.BANDWIDTH) || 0 };
        if (w > 0 && h > 0) Object.assign(pendingVariant, { width: w, height: h });
        if (a.AUDIO) pendingVariant.audioGroup = a.AUDIO;
      } else if (line.startsWith('#EXT-X-MEDIA:')) {
        s.isMaster = true;
        const a = attrs();
        if (a.URI) s.uris.push(absolute(a.URI, baseUrl));
        if (a.TYPE === 'AUDIO' && a['GROUP-ID'] !== undefined) {
          s.audio.push({ groupId: a['GROUP-ID'], ...(a.URI ? { uri: absolute(a.URI, baseUrl) } : {}), isDefault: a.DEFAULT === 'YES' });
        }
      } else if (line.startsWith('#EXT-X-ENDLIST')) {
        s.ended = true;
      } else if (line.startsWith('#EXT-X-PLAYLIST-TYPE:')) {
        const t = tagAttributeList(line).trim().toUpperCase();
        if (t === 'VOD' || t === 'EVENT') s.playlistType = t;
      } else if (line.startsWith('#EXT-X-MEDIA-SEQUENCE:')) {
        const n = Number(tagAttributeList(line).trim());
        if (Number.isSafeInteger(n) && n >= 0) mediaSequence = n;
      } else if (line.startsWith('#EXTINF:')) {
        const d = parseFloat(tagAttributeList(line));
        extinf = Number.isFinite(d) && d > 0 ? d : 0;
      } else if (line.startsWith('#EXT-X-BYTERANGE:')) {
        range = tagAttributeList(line);
      } else if (line.startsWith('#EXT-X-KEY:')) {
        const a = attrs();
        if (!keysSinceSegment) [identityKey, otherKey] = [undefined, undefined];
        keysSinceSegment = true;
        const method = a.METHOD ?? 'NONE';
        const keyFormat = a.KEYFORMAT ?? 'identity';
        if (method === 'NONE') continue;
        const key: HlsKey = { method, keyFormat, ...(a.URI ? { uri: absolute(a.URI, baseUrl) } : {}) };
        const iv = parseIv(a.IV);
        if (iv) key.iv = iv;
        if (key.uri) s.uris.push(key.uri);
        if (keyFormat === 'identity') identityKey = key;
        else otherKey ??= key;
      } else if (line.startsWith('#EXT-X-MAP:')) {
        const a = attrs();
        if (!a.URI) throw new HlsParseError('#EXT-X-MAP without URI');
        map = { uri: absolute(a.URI, baseUrl) };
        if (a.BYTERANGE !== undefined) map.byteRange = byteRange(a.BYTERANGE, 0);
        const key = identityKey ?? otherKey;
        if (key) map.key = key;
        s.uris.push(map.uri);
      }
      continue;
    }
    const uri = absolute(line, baseUrl);
    if (pendingVariant) {
      s.variants.push({ uri, ...pendingVariant });
      pendingVariant = null;
      continue;
    }
    const segment: HlsSegment = { uri, duration: extinf, sequence: mediaSequence + s.segments.length };
    if (range !== undefined) {
      segment.byteRange = byteRange(range, rangeEnd.get(uri));
      rangeEnd.set(uri, segment.byteRange.offset + segment.byteRange.length);
    }
    const key = identityKey ?? otherKey;
    if (key) segment.key = key;
    if (map) segment.map = map;
    s.segments.push(segment);
    s.uris.push(uri);
    s.duration += extinf;
    [extinf, range, keysSinceSegment] = [0, undefined, false];
  }
  s.duration = Math.round(s.duration * 1000) / 1000;
  return s;
}

/** Parses playlist text fetched from `baseUrl` (relative URIs are resolved against it). */
export function parseHlsPlaylist(text: string, baseUrl: string): HlsPlaylist {
  const s = scan(text, baseUrl);
  if (s.isMaster) {
    if (s.variants.length === 0) throw new HlsParseError('master playlist without variants');
    return { kind: 'master', variants: s.variants, audio: s.audio };
  }
  return { kind: 'media', ended: s.ended, playlistType: s.playlistType, duration: s.duration, uris: s.uris, segmentCount: s.segments.length };
}

/** The segments of a media playlist, each with its key, init section and byte range. */
export function parseHlsSegments(text: string, baseUrl: string): HlsSegment[] {
  const s = scan(text, baseUrl);
  if (s.isMaster) throw new HlsParseError('a master playlist has no segments');
  return s.segments;
}

/** The variant to read: highest bandwidth, the first one on ties. */
export function pickVariant(variants: HlsVariant[]): HlsVariant {
  return variants.reduce((best, v) => (v.bandwidth > best.bandwidth ? v : best), variants[0]);
}

/**
 * The media playlist of the audio rendition `variant` takes its audio from (its `AUDIO` group,
 * preferring DEFAULT=YES); undefined when the variant's own segments carry the audio.
 */
export function audioPlaylistOf(master: Extract<HlsPlaylist, { kind: 'master' }>, variant: HlsVariant): string | undefined {
  if (variant.audioGroup === undefined) return undefined;
  const group = master.audio.filter((r) => r.groupId === variant.audioGroup && r.uri);
  return (group.find((r) => r.isDefault) ?? group[0])?.uri;
}
