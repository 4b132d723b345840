import { clipDuration, outputSize, type CaptionWord, type Edit } from '../../domain/edits/edit.js';
import { keptWords } from '../../domain/edits/edit-timeline.js';
import type { CaptionPosition, CaptionStyle, TitleStyle } from '../../domain/edits/caption-styles.js';
import { screenParts } from '../../domain/reframe/screen-path.js';
import { autoPieces } from './filter-graph.js';

/**
 * Burned-in captions as an ASS subtitle script (pure). Words are grouped into pages (up to
 * `maxLines` lines of `wordsPerLine` words; a long pause or the end of a sentence also starts a new
 * page). Each word gets one Dialogue event that shows its whole page with that word in the
 * highlight colour, so the highlight moves word by word. Times are relative to the clip's in point
 * and clipped to [0, out - in]. PlayResX/PlayResY are the output size, so style sizes are pixels.
 */

/** A gap longer than this between two words starts a new page. */
export const PAGE_GAP_SECONDS = 1.0;
/** A page stays up until the next one when the gap between them is shorter than this (no flicker). */
export const PAGE_HOLD_SECONDS = 0.6;

export interface AssEvent {
  start: number;
  end: number;
  style: 'Caption' | 'Title';
  layer: number;
  text: string;
}

export interface CaptionPage {
  /** Clip-relative words; `lines` holds the same words split into lines. */
  words: CaptionWord[];
  lines: CaptionWord[][];
}

/** `#RRGGBB` + alpha (0 opaque .. 255 transparent) to the ASS style colour `&HAABBGGRR`. */
export function assColor(hex: string, alpha = 0): string {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!m) throw new RangeError(`not a #RRGGBB colour: ${hex}`);
  const a = Math.max(0, Math.min(255, Math.round(alpha)));
  return `&H${a.toString(16).padStart(2, '0')}${m[3]}${m[2]}${m[1]}`.toUpperCase();
}

/** `#RRGGBB` to the override-tag colour `&HBBGGRR&` (as in `{\1c&HBBGGRR&}`). */
export function assOverrideColor(hex: string): string {
  return `&H${assColor(hex).slice(4)}&`;
}

/** Seconds to the ASS time `H:MM:SS.cc` (centiseconds, rounded). */
export function assTime(seconds: number): string {
  const cs = Math.max(0, Math.round(seconds * 100));
  const h = Math.floor(cs / 360000);
  const m = Math.floor((cs % 360000) / 6000);
  const s = Math.floor((cs % 6000) / 100);
  const c = cs % 100;
  return `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}.${String(c).padStart(2, '0')}`;
}

/**
 * Makes text safe for a Dialogue line: `{` and `}` become the escapes `\{` `\}` (libass shows them
 * literally); a backslash that would start `\N`, `\n`, `\h`, `\{` or `\}` gets a zero-width space
 * after it (every shipped font has U+200B); line breaks and other control characters become spaces.
 */
export function escapeAssText(text: string): string {
  let out = '';
  const s = text.replace(/[\u0000-\u001f\u007f]+/g, ' ');
  for (let i = 0; i < s.length; i++) {
    const ch = s[i];
    if (ch === '{' || ch === '}') out += `\\${ch}`;
    else if (ch === '\\') out += /[Nnh{}]/.test(s[i + 1] ?? '') ? '\\\u200b' : '\\';
    else out += ch;
  }
  return out;
}

function cleanWord(text: string, uppercase: boolean): string {
  const t = text.replace(/\s+/g, ' ').trim();
  return uppercase ? t.toUpperCase() : t;
}

/** Words inside [in, out], shifted to clip time and clipped to [0, out - in], sorted, empty ones dropped. */
export function clipWords(words: readonly CaptionWord[], inPoint: number, outPoint: number, uppercase = false): CaptionWord[] {
  const dur = outPoint - inPoint;
  const out: CaptionWord[] = [];
  for (const w of words) {
    const text = cleanWord(w.text, uppercase);
    if (!text || w.end < inPoint || w.start >= outPoint) continue;
    if (w.end === inPoint && w.start < inPoint) continue;
    out.push({ start: Math.max(0, w.start - inPoint), end: Math.min(dur, Math.max(w.start, w.end) - inPoint), text });
  }
  return out.sort((a, b) => a.start - b.start || a.end - b.end);
}

/** Groups clip-relative words into pages and lines. */
export function paginate(words: readonly CaptionWord[], style: Pick<CaptionStyle, 'wordsPerLine' | 'maxLines'>): CaptionPage[] {
  const perPage = style.wordsPerLine * style.maxLines;
  const pages: CaptionPage[] = [];
  let cur: CaptionWord[] = [];
  const flush = () => {
    if (!cur.length) return;
    const lines: CaptionWord[][] = [];
    for (let i = 0; i < cur.length; i += style.wordsPerLine) lines.push(cur.slice(i, i + style.wordsPerLine));
    pages.push({ words: cur, lines });
    cur = [];
  };
  for (const w of words) {
    const prev = cur[cur.length - 1];
    if (prev && (cur.length >= perPage || w.start - prev.end > PAGE_GAP_SECONDS || /[.!?…]["')\]]*$/.test(prev.text))) flush();
    cur.push(w);
  }
  flush();
  return pages;
}

/**
 * The page's text with word `current` highlighted. Highlighted words form one run (one colour
 * override, closed by `{\r}` after the current word): libass draws boxes and outlines per run, so
 * fewer runs means fewer seams.
 */
function pageText(page: CaptionPage, current: number, style: CaptionStyle): string {
  const hl = `{\\1c${assOverrideColor(style.highlightColor)}}`;
  const pop = style.popScale !== 100 ? `{\\fscx${style.popScale}\\fscy${style.popScale}}` : '';
  let out = '';
  let idx = 0;
  let open = false;
  page.lines.forEach((line, li) => {
    line.forEach((w, wi) => {
      const i = idx++;
      out += wi > 0 ? ' ' : li > 0 ? '\\N' : '';
      const lit = i === current || (style.highlightMode === 'fill' && i < current);
      if (lit && !open) {
        out += hl;
        open = true;
      }
      if (i === current) out += `${pop}${escapeAssText(w.text)}{\\r}`;
      else out += escapeAssText(w.text);
      if (i === current) open = false;
    });
  });
  return out;
}

/** One event per word: its page, with that word highlighted, from its start until the next word starts. */
export function captionEvents(words: readonly CaptionWord[], inPoint: number, outPoint: number, style: CaptionStyle): AssEvent[] {
  const dur = outPoint - inPoint;
  const pages = paginate(clipWords(words, inPoint, outPoint, style.uppercase), style);
  const events: AssEvent[] = [];
  pages.forEach((page, p) => {
    const next = pages[p + 1]?.words[0]?.start ?? Infinity;
    const last = page.words[page.words.length - 1];
    let pageEnd = Math.max(last.end, last.start + 0.2);
    if (next - pageEnd < PAGE_HOLD_SECONDS) pageEnd = next;
    pageEnd = Math.min(pageEnd, next, dur);
    page.words.forEach((w, i) => {
      const end = i + 1 < page.words.length ? page.words[i + 1].start : pageEnd;
      // Drop events that vanish at centisecond precision; the next word's event covers that time.
      if (Math.round(end * 100) <= Math.round(w.start * 100)) return;
      events.push({ start: w.start, end, style: 'Caption', layer: 0, text: pageText(page, i, style) });
    });
  });
  return events;
}

function alignment(pos: CaptionPosition): number {
  return pos === 'bottom' ? 2 : pos === 'middle' ? 5 : 8;
}

const STYLE_FORMAT =
  'Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding';

interface StyleParts {
  font: string;
  size: number;
  primary: string;
  secondary: string;
  outlineColor: string;
  outlineWidth: number;
  shadow: number;
  box: { color: string; opacity: number } | null;
  position: CaptionPosition;
  margin: number;
}

function styleLine(name: string, s: StyleParts, w: number, h: number): string {
  const k = Math.min(w, h) / 1080;
  const r = (v: number) => Math.round(v * 100) / 100;
  const outline = s.box ? assColor(s.box.color, (1 - s.box.opacity) * 255) : assColor(s.outlineColor);
  const border = s.box ? Math.max(s.outlineWidth, 4) : s.outlineWidth;
  const marginV = s.position === 'middle' ? 0 : Math.round((s.margin / 100) * h);
  const marginH = Math.round(w * 0.06);
  return `Style: ${[
    name,
    s.font.replace(/,/g, ''),
    r(s.size * k),
    assColor(s.primary),
    assColor(s.secondary),
    outline,
    assColor('#000000', 128),
    0,
    0,
    0,
    0,
    100,
    100,
    0,
    0,
    s.box ? 3 : 1,
    r(border * k),
    r(s.shadow * k),
    alignment(s.position),
    marginH,
    marginH,
    marginV,
    1,
  ].join(',')}`;
}

function captionStyleParts(c: CaptionStyle): StyleParts {
  return {
    font: c.fontFamily,
    size: c.fontSize,
    primary: c.primaryColor,
    secondary: c.highlightColor,
    outlineColor: c.outlineColor,
    outlineWidth: c.outlineWidth,
    shadow: c.shadow,
    box: c.box,
    position: c.position,
    margin: c.margin,
  };
}

function titleStyleParts(t: TitleStyle): StyleParts {
  return {
    font: t.fontFamily,
    size: t.fontSize,
    primary: t.color,
    secondary: t.color,
    outlineColor: t.outlineColor,
    outlineWidth: t.outlineWidth,
    shadow: 0,
    box: t.box,
    position: t.position,
    margin: t.margin,
  };
}

function dialogue(e: AssEvent): string {
  return `Dialogue: ${e.layer},${assTime(e.start)},${assTime(e.end)},${e.style},,0,0,0,,${e.text}`;
}

/** Font families the edit's ASS script asks for (to verify before rendering). */
export function assFontFamilies(edit: Edit): string[] {
  const out = new Set<string>();
  if (edit.captions) out.add(edit.captions.style.fontFamily);
  if (edit.title) out.add(edit.title.style.fontFamily);
  return [...out];
}

/**
 * Where captions sit in the layouts made of two parts, over the joint where they cover neither: the
 * middle for `split`; for `screen` with a face, hanging from the screen's bottom edge. Nothing for others.
 */
function jointPlacement(edit: Edit, width: number, height: number): Partial<Pick<StyleParts, 'position' | 'margin'>> {
  if (edit.layout.reframe === 'split' && edit.layout.splitPaths) return { position: 'middle' };
  if (edit.layout.reframe === 'screen' && edit.layout.screenPath) {
    const { screen } = screenParts(edit.source, { width, height });
    return { position: 'top', margin: Math.min(45, Math.round((screen / height) * 1000) / 10 + 1.5) };
  }
  return {};
}

/**
 * An `auto` edit's captions inside `split` and `screen` shots move over the joint as in those layouts
 * (an override tag at the start of each event, by the shot playing at the event's start: `\an5` in the
 * middle, or `\an8\pos` under the screen); the other shots keep the style's place.
 */
function autoShotPlacement(edit: Edit, events: AssEvent[], width: number, height: number): AssEvent[] {
  const pieces =
    edit.layout.reframe === 'auto' && edit.layout.shots?.length ? autoPieces(edit, edit.segments && edit.segments.length > 1 ? edit.segments : null) : [];
  if (pieces.length === 0) return events;
  let at = 0;
  const spans = pieces.map((p) => {
    const span = { from: at, to: at + (p.end - p.start), shot: p.shot };
    at = span.to;
    return span;
  });
  const { screen } = screenParts(edit.source, { width, height });
  return events.map((e) => {
    if (e.style !== 'Caption') return e;
    const shot = (spans.find((s) => e.start >= s.from - 1e-6 && e.start < s.to - 1e-6) ?? spans[spans.length - 1]).shot;
    if (shot.reframe === 'split' && shot.splitPaths) return { ...e, text: `{\\an5}${e.text}` };
    if (shot.reframe === 'screen' && shot.screenPath) return { ...e, text: `{\\an8\\pos(${width / 2},${Math.round(screen + 0.015 * height)})}${e.text}` };
    return e;
  });
}

/** The ASS script for the edit's captions and title, or null when it has neither. */
export function buildAss(edit: Edit): string | null {
  if (!edit.captions && !edit.title) return null;
  const { width, height } = outputSize(edit.layout.aspect, edit.resolution);
  const dur = clipDuration(edit);
  const styles: string[] = [];
  const events: AssEvent[] = [];
  if (edit.captions) {
    // A split's captions sit over the joint of its two halves, where they cover neither face.
    styles.push(styleLine('Caption', { ...captionStyleParts(edit.captions.style), ...jointPlacement(edit, width, height) }, width, height));
    // With cuts, words move onto the output timeline first (removed ones dropped).
    if (edit.segments && edit.segments.length > 1) events.push(...captionEvents(keptWords(edit.captions.words, edit.segments), 0, dur, edit.captions.style));
    else events.push(...captionEvents(edit.captions.words, edit.in, edit.out, edit.captions.style));
    events.splice(0, events.length, ...autoShotPlacement(edit, events, width, height));
  }
  if (edit.title) {
    const t = edit.title.style;
    styles.push(styleLine('Title', titleStyleParts(t), width, height));
    const text = escapeAssText(cleanWord(edit.title.text, t.uppercase));
    const end = Math.min(dur, t.seconds ?? dur);
    if (text && end > 0) events.push({ start: 0, end, style: 'Title', layer: 1, text });
  }
  return [
    '[Script Info]',
    '; Generated by Cutroom (src/adapters/media/captions.ass.ts)',
    'ScriptType: v4.00+',
    `PlayResX: ${width}`,
    `PlayResY: ${height}`,
    'WrapStyle: 0',
    'ScaledBorderAndShadow: yes',
    '',
    '[V4+ Styles]',
    STYLE_FORMAT,
    ...styles,
    '',
    '[Events]',
    'Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text',
    ...events.map(dialogue),
    '',
  ].join('\n');
}
