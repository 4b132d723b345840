/** Minimal reading of HLS playlists (RFC 8216): enough to tell master from media, live from VOD. Pure. */

export interface HlsVariant {
  /** Absolute URL of the variant's media playlist. */
  uri: string;
  bandwidth: number;
  width?: number;
  height?: number;
}

export type HlsPlaylist =
  | { kind: 'master'; variants: HlsVariant[] }
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

export class HlsParseError extends Error {}

function attributes(line: string): Record<string, string> {
  const out: Record<string, string> = {};
  const body = line.slice(line.indexOf(':') + 1);
  const re = /([A-Z0-9-]+)=("[^"]*"|[^,]*)/g;
  for (let m = re.exec(body); m; m = re.exec(body)) out[m[1]] = m[2].replace(/^"|"$/g, '');
  return out;
}

function absolute(uri: string, base: string): string {
  try {
    return new URL(uri, base).toString();
  } catch {
    throw new HlsParseError(`bad URI in playlist: ${uri}`);
  }
}

export function isHlsContentType(contentType: string | undefined): boolean {
  return !!contentType && /mpegurl/i.test(contentType);
}

/** Parses playlist text fetched from `baseUrl` (relative URIs are resolved against it). */
export function parseHlsPlaylist(text: string, baseUrl: string): HlsPlaylist {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '');
  if (lines[0] !== '#EXTM3U') throw new HlsParseError('not an HLS playlist (no #EXTM3U)');

  const variants: HlsVariant[] = [];
  const uris: string[] = [];
  let pendingVariant: Omit<HlsVariant, 'uri'> | null = null;
  let ended = false;
  let playlistType: 'VOD' | 'EVENT' | undefined;
  let duration = 0;
  let segmentCount = 0;
  let isMaster = false;

  for (const line of lines.slice(1)) {
    if (line.startsWith('#EXT-X-STREAM-INF')) {
      isMaster = true;
      const a = attributes(line);
      const [w, h] = (a.RESOLUTION ?? '').split('x').map(Number);
      pendingVariant = { bandwidth: Number(a.BANDWIDTH) || 0 };
      if (w > 0 && h > 0) Object.assign(pendingVariant, { width: w, height: h });
    } else if (line.startsWith('#EXT-X-ENDLIST')) {
      ended = true;
    } else if (line.startsWith('#EXT-X-PLAYLIST-TYPE')) {
      const t = line.slice(line.indexOf(':') + 1).trim().toUpperCase();
      if (t === 'VOD' || t === 'EVENT') playlistType = t;
    } else if (line.startsWith('#EXTINF')) {
      const d = parseFloat(line.slice(line.indexOf(':') + 1));
      if (Number.isFinite(d) && d > 0) duration += d;
    } else if (line.startsWith('#EXT-X-KEY:') || line.startsWith('#EXT-X-MAP:') || line.startsWith('#EXT-X-MEDIA:')) {
      const a = attributes(line);
      if (line.startsWith('#EXT-X-MEDIA:')) isMaster = true;
      if (a.URI && !(line.startsWith('#EXT-X-KEY:') && a.METHOD === 'NONE')) uris.push(absolute(a.URI, baseUrl));
    } else if (!line.startsWith('#')) {
      const uri = absolute(line, baseUrl);
      if (pendingVariant) {
        variants.push({ uri, ...pendingVariant });
        pendingVariant = null;
      } else {
        uris.push(uri);
        segmentCount++;
      }
    }
  }

  if (isMaster) {
    if (variants.length === 0) throw new HlsParseError('master playlist without variants');
    return { kind: 'master', variants };
  }
  return { kind: 'media', ended, playlistType, duration: Math.round(duration * 1000) / 1000, uris, segmentCount };
}

/** The variant to read: highest bandwidth, the first one on ties. */
export function pickVariant(variants: HlsVariant[]): HlsVariant {
  return variants.reduce((best, v) => (v.bandwidth > best.bandwidth ? v : best), variants[0]);
}
