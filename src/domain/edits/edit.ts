import { createHash } from 'node:crypto';
import { validationError } from '../errors.js';
import type { Keyframe } from '../reframe/crop-keyframes.js';
import { screenFaceAspect } from '../reframe/screen-path.js';
import type { PunchIn } from '../reframe/punch-in.js';
import { segmentsDuration, type Segment } from './edit-timeline.js';
import {
  deepFreeze,
  validateCaptionStyle,
  validateTitleStyle,
  type Aspect,
  type CaptionStyle,
  type FieldError,
  type ReframeMode,
  type Resolution,
  type TitleStyle,
} from './caption-styles.js';

/**
 * The edit: an immutable, complete description of one rendered output (pure). Everything the
 * renderer needs to make the file is here except the source bytes, which `source.key` names in
 * storage. Times (`in`, `out`, word times, crop keyframes) are seconds on the source's timeline.
 * The same edit always gives the same hash (`editHash`), which is the render cache key.
 */

export type { Aspect, ReframeMode, Resolution } from './caption-styles.js';
export type { Segment } from './edit-timeline.js';

export interface CaptionWord {
  /** Source seconds. */
  start: number;
  end: number;
  text: string;
}

export interface Edit {
  readonly source: { readonly key: string; readonly duration: number; readonly width: number; readonly height: number };
  readonly in: number;
  readonly out: number;
  /**
   * The kept stretches (source seconds, ascending, not overlapping), played one after another;
   * `in` is the first start and `out` the last end. Absent: the one stretch `[in, out]`.
   */
  readonly segments?: readonly Readonly<Segment>[];
  readonly layout: {
    readonly aspect: Aspect;
    readonly reframe: ReframeMode;
    /** Source-time crop keyframes (src/domain/reframe) for `speaker`; without one `speaker` crops the centre. */
    readonly cropPath?: readonly Readonly<Keyframe>[];
    /**
     * `split` only: the two halves' source-time crop paths, top first, each of twice the output's aspect
     * (src/domain/reframe/split-path.ts). Absent: `split` renders as `speaker` (fewer than two faces).
     */
    readonly splitPaths?: readonly [readonly Readonly<Keyframe>[], readonly Readonly<Keyframe>[]];
    /**
     * `screen` only: the source-time crop path of the face shown below the screen, of the aspect of the
     * space the screen leaves (src/domain/reframe/screen-path.ts). Absent: the screen on a blurred fill (`fit`).
     */
    readonly screenPath?: readonly Readonly<Keyframe>[];
    /**
     * `auto` only: the layout of each shot (source seconds, in order, end to end from `in` to `out`),
     * with the halves of a `split` shot and the face of a `screen` shot; `speaker` shots use `cropPath`.
     * Absent: `auto` renders as `speaker`.
     */
    readonly shots?: readonly Readonly<EditShot>[];
    /** `auto` only: two faces talking in turns get `split` rather than the active `speaker` (a template's `two_faces`). Absent: `speaker`. */
    readonly twoFaces?: 'split';
    /**
     * `subtle`: short eased zooms (src/domain/reframe/punch-in.ts) at `punchIns` (source seconds, ascending),
     * on top of any `zoom`. Absent: none, so edits without one hash as before.
     */
    readonly punchIn?: 'subtle';
    readonly punchIns?: readonly Readonly<PunchIn>[];
    /**
     * Punch-in on the framed picture (ZOOM_MIN < zoom <= ZOOM_MAX): the middle 1/zoom of the frame,
     * around the crop's centre, fills the output. Absent: no zoom (1), so edits without one hash as before.
     */
    readonly zoom?: number;
  };
  readonly captions: { readonly words: readonly Readonly<CaptionWord>[]; readonly style: Readonly<CaptionStyle> } | null;
  readonly title?: { readonly text: string; readonly style: Readonly<TitleStyle> };
  readonly watermark: boolean;
  readonly resolution: Resolution;
}

/** One shot of an `auto` edit (src/domain/reframe/shots.ts): its stretch and layout, with that layout's paths. */
export interface EditShot {
  start: number;
  end: number;
  reframe: 'speaker' | 'split' | 'screen' | 'center';
  splitPaths?: readonly [readonly Readonly<Keyframe>[], readonly Readonly<Keyframe>[]];
  screenPath?: readonly Readonly<Keyframe>[];
}

export const SHOT_REFRAMES: readonly EditShot['reframe'][] = ['speaker', 'split', 'screen', 'center'];

/** Bumped when the engine's output for the same edit changes, so old cached files are not reused. */
export const EDIT_HASH_VERSION = 1;
export const ASPECTS: readonly Aspect[] = ['9:16', '1:1', '16:9'];
export const REFRAME_MODES: readonly ReframeMode[] = ['auto', 'speaker', 'split', 'screen', 'center', 'fit'];
export const RESOLUTIONS: readonly Resolution[] = ['720p', '1080p'];
/** No zoom: the framed picture as it is. */
export const ZOOM_MIN = 1;
/** The largest punch-in: the middle third of the framed picture (a 1080-row crop of a 1080p source then shows 360 rows). */
export const ZOOM_MAX = 3;
const MAX_WORDS = 50_000;
const MAX_WORD_CHARS = 200;
const MAX_TITLE_CHARS = 300;

/** Output frame size: the short side is 1080 (1080p) or 720 (720p). */
export function outputSize(aspect: Aspect, resolution: Resolution): { width: number; height: number } {
  const s = resolution === '1080p' ? 1080 : 720;
  const l = resolution === '1080p' ? 1920 : 1280;
  if (aspect === '9:16') return { width: s, height: l };
  if (aspect === '16:9') return { width: l, height: s };
  if (aspect === '1:1') return { width: s, height: s };
  throw new RangeError(`unknown aspect ${String(aspect)}`);
}

/** Width / height of an aspect. */
export function aspectRatio(aspect: Aspect): number {
  return aspect === '9:16' ? 9 / 16 : aspect === '16:9' ? 16 / 9 : 1;
}

/** Length of the output in seconds: `out - in`, or the sum of the kept stretches. */
export function clipDuration(edit: Pick<Edit, 'in' | 'out' | 'segments'>): number {
  return edit.segments && edit.segments.length > 0 ? segmentsDuration(edit.segments) : edit.out - edit.in;
}

function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function finite(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v);
}

function checkCropPath(
  errs: FieldError[],
  path: unknown,
  src: { width: number; height: number } | null,
  aspect: unknown,
  f = 'layout.cropPath',
  /** Width / height of the crop as a multiple of the aspect's: 2 for a half of a split. */
  factor = 1,
): void {
  if (!Array.isArray(path) || path.length === 0) return void errs.push({ field: f, rule: 'non-empty array' });
  let prevT = -Infinity;
  for (let i = 0; i < path.length; i++) {
    const k = path[i] as Record<string, unknown>;
    if (!isObj(k) || ![k.t, k.x, k.y, k.w, k.h].every(finite)) return void errs.push({ field: `${f}[${i}]`, rule: 'keyframe {t,x,y,w,h}' });
    const { t, x, y, w, h } = k as unknown as Keyframe;
    if (t < prevT) return void errs.push({ field: `${f}[${i}].t`, rule: 'ascending' });
    prevT = t;
    if (w !== path[0].w || h !== path[0].h) return void errs.push({ field: `${f}[${i}]`, rule: 'same size as the first keyframe' });
    if (w < 2 || h < 2 || x < 0 || y < 0 || (src && (x + w > src.width || y + h > src.height))) {
      return void errs.push({ field: `${f}[${i}]`, rule: 'inside the source frame' });
    }
  }
  if (typeof aspect === 'string' && ASPECTS.includes(aspect as Aspect)) {
    const r = path[0].w / path[0].h;
    if (Math.abs(r / (factor * aspectRatio(aspect as Aspect)) - 1) > 0.03) {
      const rule =
        f === 'layout.screenPath'
          ? 'crop of the aspect of the space below the screen'
          : factor === 1
            ? `crop of aspect ${aspect}`
            : `crop of ${factor} x the aspect ${aspect} (a half of the frame)`;
      errs.push({ field: f, rule });
    }
  }
}

function checkPunchIns(errs: FieldError[], layout: Record<string, unknown>, input: Record<string, unknown>): void {
  const f = 'layout.punchIns';
  const ps = layout.punchIns;
  if (layout.punchIn !== 'subtle') return void errs.push({ field: f, rule: 'only with punchIn subtle' });
  if (!Array.isArray(ps) || ps.length > 1000) return void errs.push({ field: f, rule: 'array of at most 1000' });
  let prevEnd = -Infinity;
  for (let i = 0; i < ps.length; i++) {
    const p = ps[i] as Record<string, unknown>;
    if (!isObj(p) || !finite(p.start) || !finite(p.end) || Object.keys(p).some((k) => k !== 'start' && k !== 'end')) {
      return void errs.push({ field: `${f}[${i}]`, rule: 'punch-in {start,end}' });
    }
    if (p.end <= p.start || p.start < prevEnd) return void errs.push({ field: `${f}[${i}]`, rule: 'ascending, not overlapping, end after start' });
    if ((finite(input.in) && p.start < input.in - 0.0005) || (finite(input.out) && p.end > input.out + 0.0005)) {
      return void errs.push({ field: `${f}[${i}]`, rule: 'inside in..out' });
    }
    prevEnd = p.end;
  }
}

const MAX_SHOTS = 500;

function checkShots(errs: FieldError[], layout: Record<string, unknown>, input: Record<string, unknown>, size: { width: number; height: number } | null): void {
  const f = 'layout.shots';
  const shots = layout.shots;
  if (layout.reframe !== 'auto') return void errs.push({ field: f, rule: 'only with reframe auto' });
  if (!Array.isArray(shots) || shots.length === 0 || shots.length > MAX_SHOTS) return void errs.push({ field: f, rule: `1..${MAX_SHOTS} shots` });
  for (let i = 0; i < shots.length; i++) {
    const s = shots[i] as Record<string, unknown>;
    const known = ['start', 'end', 'reframe', 'splitPaths', 'screenPath'];
    if (!isObj(s) || !finite(s.start) || !finite(s.end) || Object.keys(s).some((k) => !known.includes(k))) {
      return void errs.push({ field: `${f}[${i}]`, rule: 'shot {start,end,reframe,splitPaths?,screenPath?}' });
    }
    if (!SHOT_REFRAMES.includes(s.reframe as EditShot['reframe']))
      return void errs.push({ field: `${f}[${i}].reframe`, rule: `one of ${SHOT_REFRAMES.join(', ')}` });
    const prevEnd = i === 0 ? input.in : (shots[i - 1] as EditShot).end;
    if (finite(prevEnd) && Math.abs(s.start - prevEnd) > 0.0005)
      return void errs.push({ field: `${f}[${i}].start`, rule: i === 0 ? 'equal to in' : 'equal to the end of the shot before' });
    if (s.end <= s.start) return void errs.push({ field: `${f}[${i}].end`, rule: 'after start' });
    if (s.splitPaths !== undefined) {
      if (s.reframe !== 'split') return void errs.push({ field: `${f}[${i}].splitPaths`, rule: 'only in a split shot' });
      if (!Array.isArray(s.splitPaths) || s.splitPaths.length !== 2) return void errs.push({ field: `${f}[${i}].splitPaths`, rule: 'two crop paths' });
      s.splitPaths.forEach((p, j) => checkCropPath(errs, p, size, layout.aspect, `${f}[${i}].splitPaths[${j}]`, 2));
    }
    if (s.screenPath !== undefined) {
      const room = size && ASPECTS.includes(layout.aspect as Aspect) ? screenFaceAspect(size, aspectRatio(layout.aspect as Aspect)) : 0;
      if (s.reframe !== 'screen' || (size && room === 0))
        return void errs.push({ field: `${f}[${i}].screenPath`, rule: 'only in a screen shot with room below the screen' });
      checkCropPath(errs, s.screenPath, size, layout.aspect, `${f}[${i}].screenPath`, room ? room / aspectRatio(layout.aspect as Aspect) : 1);
    }
  }
  const last = shots[shots.length - 1] as EditShot;
  if (finite(input.out) && Math.abs(last.end - input.out) > 0.0005) errs.push({ field: `${f}[${shots.length - 1}].end`, rule: 'equal to out' });
}

const MAX_SEGMENTS = 500;
/** Shortest kept stretch: a few frames, so every stretch has picture to join. */
export const MIN_SEGMENT_SECONDS = 0.1;

function checkSegments(errs: FieldError[], segs: unknown, input: Record<string, unknown>, duration: number): void {
  const f = 'segments';
  if (!Array.isArray(segs) || segs.length === 0) return void errs.push({ field: f, rule: 'non-empty array' });
  if (segs.length > MAX_SEGMENTS) return void errs.push({ field: f, rule: `at most ${MAX_SEGMENTS} stretches` });
  let prevEnd = -Infinity;
  for (let i = 0; i < segs.length; i++) {
    const s = segs[i] as Record<string, unknown>;
    if (!isObj(s) || !finite(s.start) || !finite(s.end) || Object.keys(s).some((k) => k !== 'start' && k !== 'end')) {
      return void errs.push({ field: `${f}[${i}]`, rule: 'stretch {start,end}' });
    }
    const { start, end } = s as unknown as Segment;
    if (start < 0) return void errs.push({ field: `${f}[${i}].start`, rule: 'number >= 0' });
    if (end <= start) return void errs.push({ field: `${f}[${i}].end`, rule: 'after start' });
    if (end - start < MIN_SEGMENT_SECONDS - 0.0005) return void errs.push({ field: `${f}[${i}].end`, rule: `at least ${MIN_SEGMENT_SECONDS} s after start` });
    if (end > duration + 0.001) return void errs.push({ field: `${f}[${i}].end`, rule: 'within the source duration' });
    if (start < prevEnd) return void errs.push({ field: `${f}[${i}].start`, rule: 'ascending, not overlapping the stretch before' });
    prevEnd = end;
  }
  const first = (segs[0] as Segment).start;
  const last = (segs[segs.length - 1] as Segment).end;
  if (finite(input.in) && Math.abs(input.in - first) > 0.0005) errs.push({ field: 'in', rule: 'equal to segments[0].start' });
  if (finite(input.out) && Math.abs(input.out - last) > 0.0005) errs.push({ field: 'out', rule: 'equal to the last segment end' });
}

function checkWords(errs: FieldError[], words: unknown): void {
  const f = 'captions.words';
  if (!Array.isArray(words)) return void errs.push({ field: f, rule: 'array' });
  if (words.length > MAX_WORDS) return void errs.push({ field: f, rule: `at most ${MAX_WORDS} words` });
  for (let i = 0; i < words.length; i++) {
    const w = words[i] as Record<string, unknown>;
    if (!isObj(w) || !finite(w.start) || !finite(w.end) || typeof w.text !== 'string')
      return void errs.push({ field: `${f}[${i}]`, rule: 'word {start,end,text}' });
    if ((w.end as number) < (w.start as number) || (w.start as number) < 0) return void errs.push({ field: `${f}[${i}]`, rule: 'start <= end' });
    if ((w.text as string).length > MAX_WORD_CHARS) return void errs.push({ field: `${f}[${i}].text`, rule: `at most ${MAX_WORD_CHARS} characters` });
  }
}

/** Checks an edit; returns the failed fields (empty when valid). Pure. */
export function validateEdit(input: unknown, opts: { fonts?: readonly string[] } = {}): FieldError[] {
  if (!isObj(input)) return [{ field: 'edit', rule: 'object' }];
  const errs: FieldError[] = [];
  const src = input.source;
  let size: { width: number; height: number } | null = null;
  let duration = Infinity;
  if (!isObj(src)) errs.push({ field: 'source', rule: 'object' });
  else {
    if (typeof src.key !== 'string' || src.key === '') errs.push({ field: 'source.key', rule: 'non-empty string' });
    if (!finite(src.duration) || src.duration <= 0) errs.push({ field: 'source.duration', rule: 'positive number' });
    else duration = src.duration;
    for (const k of ['width', 'height'] as const) {
      if (!Number.isInteger(src[k]) || (src[k] as number) < 2) errs.push({ field: `source.${k}`, rule: 'integer >= 2' });
    }
    if (Number.isInteger(src.width) && Number.isInteger(src.height)) size = { width: src.width as number, height: src.height as number };
  }
  if (!finite(input.in) || input.in < 0) errs.push({ field: 'in', rule: 'number >= 0' });
  if (!finite(input.out)) errs.push({ field: 'out', rule: 'number' });
  else if (finite(input.in) && input.out <= input.in) errs.push({ field: 'out', rule: 'after in' });
  else if (input.out > duration + 0.001) errs.push({ field: 'out', rule: 'within the source duration' });
  if (input.segments !== undefined) checkSegments(errs, input.segments, input, duration);

  const layout = input.layout;
  if (!isObj(layout)) errs.push({ field: 'layout', rule: 'object' });
  else {
    if (!ASPECTS.includes(layout.aspect as Aspect)) errs.push({ field: 'layout.aspect', rule: `one of ${ASPECTS.join(', ')}` });
    if (!REFRAME_MODES.includes(layout.reframe as ReframeMode)) errs.push({ field: 'layout.reframe', rule: `one of ${REFRAME_MODES.join(', ')}` });
    if (layout.cropPath !== undefined) checkCropPath(errs, layout.cropPath, size, layout.aspect);
    if (layout.splitPaths !== undefined) {
      if (layout.reframe !== 'split') errs.push({ field: 'layout.splitPaths', rule: 'only with reframe split' });
      else if (!Array.isArray(layout.splitPaths) || layout.splitPaths.length !== 2) errs.push({ field: 'layout.splitPaths', rule: 'two crop paths' });
      else layout.splitPaths.forEach((p, i) => checkCropPath(errs, p, size, layout.aspect, `layout.splitPaths[${i}]`, 2));
    }
    if (layout.shots !== undefined) checkShots(errs, layout, input, size);
    if (layout.twoFaces !== undefined && (layout.twoFaces !== 'split' || layout.reframe !== 'auto'))
      errs.push({ field: 'layout.twoFaces', rule: 'split, only with reframe auto' });
    if (layout.punchIn !== undefined && layout.punchIn !== 'subtle') errs.push({ field: 'layout.punchIn', rule: 'subtle' });
    if (layout.punchIns !== undefined) checkPunchIns(errs, layout, input);
    if (layout.screenPath !== undefined) {
      const room = size && ASPECTS.includes(layout.aspect as Aspect) ? screenFaceAspect(size, aspectRatio(layout.aspect as Aspect)) : 0;
      if (layout.reframe !== 'screen') errs.push({ field: 'layout.screenPath', rule: 'only with reframe screen' });
      else if (size && room === 0) errs.push({ field: 'layout.screenPath', rule: 'room below the screen (a source wider than the output)' });
      else checkCropPath(errs, layout.screenPath, size, layout.aspect, 'layout.screenPath', room ? room / aspectRatio(layout.aspect as Aspect) : 1);
    }
    if (layout.zoom !== undefined && !(finite(layout.zoom) && layout.zoom >= ZOOM_MIN && layout.zoom <= ZOOM_MAX)) {
      errs.push({ field: 'layout.zoom', rule: `number ${ZOOM_MIN}..${ZOOM_MAX}` });
    }
  }

  const cap = input.captions;
  if (cap !== null) {
    if (!isObj(cap)) errs.push({ field: 'captions', rule: 'object or null' });
    else {
      checkWords(errs, cap.words);
      errs.push(...validateCaptionStyle(cap.style, { fonts: opts.fonts, prefix: 'captions.style.' }));
    }
  }
  if (input.title !== undefined) {
    const t = input.title;
    if (!isObj(t)) errs.push({ field: 'title', rule: 'object' });
    else {
      if (typeof t.text !== 'string' || t.text.trim() === '' || t.text.length > MAX_TITLE_CHARS)
        errs.push({ field: 'title.text', rule: `1..${MAX_TITLE_CHARS} characters` });
      errs.push(...validateTitleStyle(t.style, { fonts: opts.fonts, prefix: 'title.style.' }));
    }
  }
  if (typeof input.watermark !== 'boolean') errs.push({ field: 'watermark', rule: 'boolean' });
  if (!RESOLUTIONS.includes(input.resolution as Resolution)) errs.push({ field: 'resolution', rule: `one of ${RESOLUTIONS.join(', ')}` });
  const known = new Set(['source', 'in', 'out', 'segments', 'layout', 'captions', 'title', 'watermark', 'resolution']);
  for (const k of Object.keys(input)) if (!known.has(k)) errs.push({ field: k, rule: 'unknown field' });
  return errs;
}

/**
 * Validates and returns a deep-frozen copy of the edit. Throws VALIDATION_ERROR with the failed
 * fields. `title: undefined` is dropped, so it equals an edit without a title; so is a `segments`
 * of one stretch (it says no more than `in`/`out`), so it equals the edit without one, and a
 * `layout.zoom` of 1 (no zoom).
 */
export function makeEdit(input: unknown, opts: { fonts?: readonly string[] } = {}): Edit {
  const errors = validateEdit(input, opts);
  if (errors.length) throw validationError(errors);
  const copy = JSON.parse(JSON.stringify(input)) as { -readonly [K in keyof Edit]: Edit[K] };
  if (copy.segments && copy.segments.length <= 1) delete copy.segments;
  if (copy.layout.zoom === ZOOM_MIN) delete (copy.layout as { zoom?: number }).zoom;
  return deepFreeze(copy as Edit);
}

function canonical(value: unknown): unknown {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new RangeError('edit numbers must be finite');
    const r = Math.round(value * 1000) / 1000;
    return r === 0 ? 0 : r; // no -0
  }
  if (Array.isArray(value)) return value.map((v) => (v === undefined ? null : canonical(v)));
  if (isObj(value)) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort()) {
      if (value[k] !== undefined) out[k] = canonical(value[k]);
    }
    return out;
  }
  return value;
}

/**
 * Canonical JSON: keys sorted at every level, numbers rounded to milliseconds / thousandths,
 * undefined members dropped. Two edits that render the same output give the same string.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(canonical(value));
}

/**
 * SHA-256 (hex) of the versioned canonical JSON: the render cache key. A `segments` of one stretch
 * (or none) is left out, so an edit without cuts hashes as it always has.
 */
export function editHash(edit: Edit): string {
  const content = edit.segments && edit.segments.length <= 1 ? { ...edit, segments: undefined } : edit;
  return createHash('sha256').update(`cutroom-edit/v${EDIT_HASH_VERSION}\n`).update(canonicalJson(content)).digest('hex');
}
