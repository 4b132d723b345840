import type { Cue } from './cues.js';

/**
 * Transcript files (pure): SubRip (.srt), WebVTT (.vtt) and plain text (.txt). Speaker names are
 * written when `speakers` is true (the default) and the cue has one: `A: ` before the first line in
 * SRT and TXT, a `<v A>` voice tag in WebVTT. Lines end with `\n`; files end with one newline.
 */

export type TranscriptFormat = 'srt' | 'vtt' | 'txt';

export const TRANSCRIPT_FORMATS: Record<TranscriptFormat, { contentType: string; extension: string }> = {
  srt: { contentType: 'application/x-subrip; charset=utf-8', extension: 'srt' },
  vtt: { contentType: 'text/vtt; charset=utf-8', extension: 'vtt' },
  txt: { contentType: 'text/plain; charset=utf-8', extension: 'txt' },
};

export function isTranscriptFormat(v: unknown): v is TranscriptFormat {
  return v === 'srt' || v === 'vtt' || v === 'txt';
}

export interface FormatOptions {
  /** Write speaker names. Default true. */
  speakers?: boolean;
}

/** `HH:MM:SS,mmm` (SRT, `sep` ',') or `HH:MM:SS.mmm` (WebVTT, `sep` '.'); hours grow past 99 when needed. */
export function formatTimestamp(seconds: number, sep: ',' | '.'): string {
  const ms = Math.max(0, Math.round((Number.isFinite(seconds) ? seconds : 0) * 1000));
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(h)}:${pad(m)}:${pad(s)}${sep}${pad(ms % 1000, 3)}`;
}

/** Cue text as non-empty lines; `-->` (the timing arrow) never appears inside. */
function lines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((l) => l.replace(/-->/g, '->').trim())
    .filter((l) => l !== '');
}

/** Cue times as written: never negative, end not before start. */
function times(c: Cue): [number, number] {
  const start = Math.max(0, c.start);
  return [start, Math.max(start, c.end)];
}

export function toSrt(cues: Cue[], opts: FormatOptions = {}): string {
  const speakers = opts.speakers ?? true;
  const blocks: string[] = [];
  for (const c of cues) {
    const text = lines(c.text);
    if (!text.length) continue;
    if (speakers && c.speaker) text[0] = `${c.speaker}: ${text[0]}`;
    const [start, end] = times(c);
    blocks.push(`${blocks.length + 1}\n${formatTimestamp(start, ',')} --> ${formatTimestamp(end, ',')}\n${text.join('\n')}\n`);
  }
  return blocks.join('\n');
}

const escapeVtt = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function toVtt(cues: Cue[], opts: FormatOptions = {}): string {
  const speakers = opts.speakers ?? true;
  const blocks: string[] = ['WEBVTT\n'];
  let n = 0;
  for (const c of cues) {
    const text = lines(c.text).map(escapeVtt);
    if (!text.length) continue;
    // A voice annotation may not contain '>' or line breaks.
    if (speakers && c.speaker) text[0] = `<v ${c.speaker.replace(/[>\r\n]/g, ' ').trim()}>${text[0]}`;
    const [start, end] = times(c);
    blocks.push(`${++n}\n${formatTimestamp(start, '.')} --> ${formatTimestamp(end, '.')}\n${text.join('\n')}\n`);
  }
  return blocks.join('\n');
}

/**
 * Plain paragraphs separated by a blank line. A paragraph is a run of cues of one speaker; it also
 * ends at a pause of `paragraphPauseSeconds` (default 2 s) or, past `paragraphChars` (default 600)
 * characters, at a sentence end. With speakers, each paragraph starts with `A: `.
 */
export function toTxt(cues: Cue[], opts: FormatOptions & { paragraphPauseSeconds?: number; paragraphChars?: number } = {}): string {
  const speakers = opts.speakers ?? true;
  const pause = opts.paragraphPauseSeconds ?? 2;
  const maxChars = opts.paragraphChars ?? 600;
  const paragraphs: Array<{ speaker?: string; text: string; end: number }> = [];
  for (const c of cues) {
    const text = lines(c.text).join(' ');
    if (!text) continue;
    const last = paragraphs[paragraphs.length - 1];
    const sameVoice = last !== undefined && last.speaker === c.speaker;
    const longDone = last !== undefined && last.text.length >= maxChars && /[.?!…]["'”’)\]]*$/.test(last.text);
    if (last && sameVoice && c.start - last.end < pause && !longDone) {
      last.text += ` ${text}`;
      last.end = c.end;
    } else {
      paragraphs.push({ speaker: c.speaker, text, end: c.end });
    }
  }
  if (!paragraphs.length) return '';
  return `${paragraphs.map((p) => (speakers && p.speaker ? `${p.speaker}: ${p.text}` : p.text)).join('\n\n')}\n`;
}

export function formatTranscript(format: TranscriptFormat, cues: Cue[], opts: FormatOptions = {}): string {
  if (format === 'srt') return toSrt(cues, opts);
  if (format === 'vtt') return toVtt(cues, opts);
  return toTxt(cues, opts);
}

/** `name.ext` for a Content-Disposition header: the upload's base name (without its extension), made safe. */
export function transcriptFileName(baseName: string, format: TranscriptFormat): string {
  const stem =
    baseName
      .replace(/\.[^./\\]*$/, '')
      .replace(/[^\p{L}\p{N}._ -]+/gu, '_')
      .trim()
      .slice(0, 120) || 'transcript';
  return `${stem}.${TRANSCRIPT_FORMATS[format].extension}`;
}
