/**
 * The line and attribute syntax of HLS playlists, read the way ffmpeg's hls demuxer reads it
 * (libavformat/hls.c with `ff_get_chomp_line` and `ff_parse_key_value`), so that what the service
 * parses (src/adapters/sources/hls-playlist.ts) and what the relay rewrites
 * (src/adapters/net/safe-relay.ts) is exactly what a media tool would act on. Pure.
 *
 * - A line ends at CR, LF, CRLF or a NUL byte (ffmpeg stops a line at any of them).
 * - Only the first 4095 characters of a line are kept (ffmpeg's line buffer), then trailing
 *   whitespace (space, tab, CR, LF, VT, FF) is removed. Leading whitespace is kept.
 * - A line whose first character is `#` is a tag or a comment; any other non-empty line is a URI.
 * - An attribute list is `KEY=value` or `KEY="value"` pairs. Separators are commas and whitespace;
 *   the key is everything up to the next `=`; an unquoted value runs to the next comma or
 *   whitespace; a quoted value runs to the next unescaped `"` (`\x` stands for `x`).
 */

/** ffmpeg reads playlist lines into a 4096-byte buffer (MAX_URL_SIZE): the rest of a longer line is dropped. */
export const MAX_LINE_CHARS = 4095;

const SPACE = new Set([' ', '\t', '\n', '\v', '\f', '\r']);

/** The playlist's lines, split and trimmed as ffmpeg reads them. */
export function playlistLines(text: string): string[] {
  return text.split(/\r\n|\r|\n|\0/).map(chompLine);
}

function chompLine(raw: string): string {
  let line = raw.length > MAX_LINE_CHARS ? raw.slice(0, MAX_LINE_CHARS) : raw;
  let end = line.length;
  while (end > 0 && SPACE.has(line[end - 1])) end--;
  if (end !== line.length) line = line.slice(0, end);
  return line;
}

/** True for a tag or comment line (`#...`); false for an empty line or a URI line. */
export function isTagLine(line: string): boolean {
  return line.startsWith('#');
}

/** One `KEY=value` pair of an attribute list with the position of its value (quotes included). */
export interface AttributeSpan {
  /** The key as ffmpeg compares it (without the `=`). */
  key: string;
  /** The value, unquoted and unescaped. */
  value: string;
  quoted: boolean;
  /** Offsets of the value in the list, `start` inclusive, `end` exclusive, quotes included. */
  start: number;
  end: number;
}

/** Tokenizes an attribute list like ffmpeg's `ff_parse_key_value`. */
export function attributeSpans(list: string): AttributeSpan[] {
  const out: AttributeSpan[] = [];
  let i = 0;
  for (;;) {
    while (i < list.length && (SPACE.has(list[i]) || list[i] === ',')) i++;
    if (i >= list.length) break;
    const eq = list.indexOf('=', i);
    if (eq < 0) break;
    const key = list.slice(i, eq);
    i = eq + 1;
    const start = i;
    let value = '';
    let quoted = false;
    if (list[i] === '"') {
      quoted = true;
      i++;
      while (i < list.length && list[i] !== '"') {
        if (list[i] === '\\') {
          if (i + 1 >= list.length) break;
          value += list[i + 1];
          i += 2;
        } else {
          value += list[i];
          i++;
        }
      }
      if (list[i] === '"') i++;
    } else {
      while (i < list.length && !SPACE.has(list[i]) && list[i] !== ',') value += list[i++];
    }
    out.push({ key, value, quoted, start, end: i });
  }
  return out;
}

/** The attribute list of a tag line (`#TAG:list`), or '' when the line has no `:`. */
export function tagAttributeList(line: string): string {
  const colon = line.indexOf(':');
  return colon < 0 ? '' : line.slice(colon + 1);
}

/** `KEY → value` of an attribute list; a key given twice keeps its last value (as ffmpeg does). */
export function parseAttributes(list: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const a of attributeSpans(list)) out[a.key] = a.value;
  return out;
}

/** A value written back into an attribute list: always quoted, `"` and `\` escaped. */
export function quoteAttribute(value: string): string {
  return `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

const BOM = [0xef, 0xbb, 0xbf];

/**
 * Whether a body whose first bytes are `head` is an HLS playlist: `#EXTM3U` after an optional UTF-8
 * BOM and ASCII whitespace. `complete`: `head` is the whole body. A head of only BOM and whitespace
 * that is not the whole body counts as a playlist (it cannot be media, and the caller must not pass
 * it on unread).
 */
export function isPlaylistHead(head: Uint8Array, complete: boolean): boolean {
  let i = 0;
  if (head.length >= 3 && head[0] === BOM[0] && head[1] === BOM[1] && head[2] === BOM[2]) i = 3;
  while (i < head.length && (head[i] === 0x20 || (head[i] >= 0x09 && head[i] <= 0x0d))) i++;
  if (i >= head.length) return !complete;
  const tag = '#EXTM3U';
  for (let k = 0; k < tag.length; k++) {
    if (i + k >= head.length) return !complete; // a prefix of the tag, more bytes to come
    if (head[i + k] !== tag.charCodeAt(k)) return false;
  }
  return true;
}

/** Bytes to read before `isPlaylistHead` can decide for an ordinary body. */
export const PLAYLIST_HEAD_BYTES = 1024;
