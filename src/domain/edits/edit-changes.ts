import { validationError } from '../errors.js';
import type { Keyframe } from '../reframe/crop-keyframes.js';
import { analysisLayout, cropPathSlice, sourceTimeCropPath, type SourceFaces } from './clip-edit.js';
import type { Aspect, CaptionStyle, FieldError, ReframeMode, Resolution, TemplateZoom, TitleStyle, TwoFaces } from './caption-styles.js';
import { makeEdit, MIN_SEGMENT_SECONDS, ZOOM_MAX, ZOOM_MIN, type Edit, type EditShot } from './edit.js';
import { punchIns } from '../reframe/punch-in.js';
import { DEFAULT_MIN_SILENCE_SECONDS, MAX_SILENCE_SECONDS, MIN_SILENCE_SECONDS, silenceCuts } from './edit-silences.js';
import { editSegments, segmentsDuration, type Segment } from './edit-timeline.js';
import { wordsInSegments, type EditWord } from './edit-words.js';

/**
 * Deriving an edit from another (POST /edits; pure): new kept stretches snapped to word edges, words
 * cut out, caption words corrected, fillers and long pauses cut (edit-silences.ts), another layout,
 * zoom, template, captions or title. The base never changes; the result is a new edit and the
 * lineage's word list with the corrections.
 */

/** A boundary moves to the nearest word edge and into the gap beside it by at most this much. */
export const SNAP_PAD_SECONDS = 0.1;
/** The farthest a snapped boundary ever sits from the word edge it was moved to (SNAP_PAD_SECONDS ≤ this). */
export const SNAP_MAX_SECONDS = 0.25;
/** Pieces shorter than an edit's shortest stretch left by cuts or a trim are dropped (no flash frames). */
export const MIN_PIECE_SECONDS = MIN_SEGMENT_SECONDS;

/** Hesitations cut by `remove_fillers`, compared without case and punctuation. */
export const FILLER_WORDS: ReadonlySet<string> = new Set(['um', 'umm', 'uh', 'uhh', 'uhm', 'er', 'erm', 'ah', 'ahh', 'hmm', 'hm', 'mm', 'mhm']);
/** The recogniser's filler tokens: `[uh]`, `<sil>`, `++UM++`, `+NSN+`, `[NOISE]`. */
const FILLER_TOKEN = /^(\[[^\]]*\]|<[^>]*>|\+\+?[^+\s]+\+\+?)$/;

/** Whether a word is a filler ("um", "Uh,", "hmm…", or a recogniser token). A hidden word (`""`) is not. */
export function isFiller(text: string): boolean {
  const t = text.trim().toLowerCase();
  if (t === '') return false;
  if (FILLER_TOKEN.test(t)) return true;
  return FILLER_WORDS.has(t.replace(/[^\p{L}]/gu, ''));
}

const r3 = (v: number) => Math.round(v * 1000) / 1000;

/**
 * Moves a boundary (source seconds) to the nearest word edge, into the gap beside it: `SNAP_PAD_SECONDS`
 * from the edge, or half the gap when the gap is narrower. A boundary inside a word goes to the word's
 * nearer edge (the word is kept whole or left out whole, never cut in half). Without words it stays.
 */
export function snapBoundary(t: number, words: readonly { start: number; end: number }[], duration: number): number {
  if (words.length === 0) return t;
  let best: { at: number; side: 'before' | 'after'; w: { start: number; end: number } } | null = null;
  let bestDist = Infinity;
  for (const w of words) {
    if (t > w.start && t < w.end) {
      best = t - w.start <= w.end - t ? { at: w.start, side: 'before', w } : { at: w.end, side: 'after', w };
      break;
    }
    for (const [at, side] of [
      [w.start, 'before'],
      [w.end, 'after'],
    ] as const) {
      const d = Math.abs(t - at);
      if (d < bestDist) {
        bestDist = d;
        best = { at, side, w };
      }
    }
  }
  const edge = best!;
  let pos: number;
  if (edge.side === 'before') {
    const prevEnd = Math.max(0, ...words.filter((w) => w.end <= edge.at && w !== edge.w).map((w) => w.end));
    pos = edge.at - Math.min(SNAP_PAD_SECONDS, (edge.at - prevEnd) / 2);
  } else {
    const nextStart = Math.min(duration, ...words.filter((w) => w.start >= edge.at && w !== edge.w).map((w) => w.start));
    pos = edge.at + Math.min(SNAP_PAD_SECONDS, Math.max(0, nextStart - edge.at) / 2);
  }
  return r3(Math.min(duration, Math.max(0, pos)));
}

/** Ascending stretches with overlapping or touching ones merged and empty ones dropped. */
export function mergeSegments(segments: readonly Segment[]): Segment[] {
  const out: Segment[] = [];
  for (const s of [...segments].sort((a, b) => a.start - b.start)) {
    if (s.end - s.start <= 0) continue;
    const last = out[out.length - 1];
    if (last && s.start <= last.end + 1e-6) last.end = Math.max(last.end, s.end);
    else out.push({ start: s.start, end: s.end });
  }
  return out;
}

/** The stretches with `cut` taken out; pieces shorter than MIN_PIECE_SECONDS are dropped. */
export function cutOut(segments: readonly Segment[], cut: Segment): Segment[] {
  const out: Segment[] = [];
  for (const s of segments) {
    if (cut.end <= s.start || cut.start >= s.end) {
      out.push({ ...s });
      continue;
    }
    if (cut.start - s.start >= MIN_PIECE_SECONDS) out.push({ start: s.start, end: cut.start });
    if (s.end - cut.end >= MIN_PIECE_SECONDS) out.push({ start: cut.end, end: s.end });
  }
  return out;
}

/** The parts of the stretches inside `range`. */
export function keepOnly(segments: readonly Segment[], range: Segment): Segment[] {
  return segments.map((s) => ({ start: Math.max(s.start, range.start), end: Math.min(s.end, range.end) })).filter((s) => s.end - s.start >= MIN_PIECE_SECONDS);
}

/**
 * The time spans of the words to cut: each run of words next to each other in the word list (by
 * position) is one span from its first start to its last end, so no sliver is left between them.
 */
export function wordCuts(words: readonly EditWord[], indices: ReadonlySet<number>): Segment[] {
  const order = [...words].sort((a, b) => a.start - b.start);
  const cuts: Segment[] = [];
  let run: Segment | null = null;
  for (const w of order) {
    if (indices.has(w.index)) {
      if (run) run.end = Math.max(run.end, w.end);
      else run = { start: w.start, end: w.end };
    } else if (run) {
      cuts.push(run);
      run = null;
    }
  }
  if (run) cuts.push(run);
  return cuts;
}

/** What POST /edits may change (the API's body without `base_edit_id` and `template_id`). */
export interface EditChange {
  segments?: Segment[];
  trim?: Segment;
  snap?: boolean;
  remove_words?: number[];
  word_text?: Array<{ index: number; text: string }>;
  remove_fillers?: boolean;
  /** `true` (pauses over DEFAULT_MIN_SILENCE_SECONDS) or `{ min_seconds }`: pauses cut down to a short gap (edit-silences.ts). */
  remove_silences?: boolean | { min_seconds?: number };
  aspect_ratio?: Aspect;
  reframe?: ReframeMode;
  /**
   * Punch-in factor, ZOOM_MIN (none) to ZOOM_MAX; or `subtle` (short eased zooms on emphasised words,
   * punch-in.ts, on top of the base's factor), or `none` (no zoom at all).
   */
  zoom?: number | 'none' | 'subtle';
  captions_enabled?: boolean;
  title?: { text: string } | null;
}

/** The template styles a derived edit may take: all of them when applied, else only what the base lacks. */
export interface DeriveTemplate {
  captions: CaptionStyle;
  title: TitleStyle;
  layout: { aspect: Aspect; reframe: ReframeMode; resolution: Resolution; zoom?: TemplateZoom; twoFaces?: TwoFaces };
}

export interface DeriveInput {
  base: Edit;
  /** The lineage's word list (every word of the clip, with its current text). */
  words: readonly EditWord[];
  change: EditChange;
  template: DeriveTemplate;
  /** True when `template_id` was given: its captions style, title style and layout replace the base's. */
  applyTemplate: boolean;
  /** Longest output allowed, seconds. */
  maxSeconds: number;
  fonts?: readonly string[];
  /**
   * Where the voice detector hears speech (source seconds) in the stretches `keptStretches` gives;
   * needed with `remove_silences`.
   */
  speech?: readonly Segment[];
  /** The source's 9:16 speaker crop path (source time; the video analysis of the clip's submission), when known. */
  sourceCropPath?: readonly Keyframe[];
  /** The source's face samples and scene cuts (the same analysis), when kept: `split` is computed from them. */
  sourceFaces?: SourceFaces;
  /** The source's loudness per second (LUFS, the same analysis): the `subtle` punch-in finds emphasised words with it. */
  sourceLoudness?: readonly number[];
  /** The source's pitch per second (Hz, the same analysis): pitch peaks are emphasis too. */
  sourcePitch?: readonly number[];
}

/** The pause length `remove_silences` asks for, or null when it asks for none. */
export function minSilenceSeconds(change: EditChange): number | null {
  const r = change.remove_silences;
  if (!r) return null;
  return r === true ? DEFAULT_MIN_SILENCE_SECONDS : (r.min_seconds ?? DEFAULT_MIN_SILENCE_SECONDS);
}

function checkStretches(errs: FieldError[], field: string, segs: readonly Segment[], duration: number): void {
  let prevEnd = -Infinity;
  segs.forEach((s, i) => {
    const f = field === 'trim' ? 'trim' : `${field}[${i}]`;
    if (s.end <= s.start) errs.push({ field: `${f}.end`, rule: 'after start' });
    else if (s.end > duration + 0.001) errs.push({ field: `${f}.end`, rule: `within the source (${r3(duration)} s)` });
    else if (s.start < prevEnd) errs.push({ field: `${f}.start`, rule: 'ascending, not overlapping the stretch before' });
    prevEnd = Math.max(prevEnd, s.end);
  });
}

/**
 * The kept stretches after every change but `remove_silences` (replaced, trimmed, snapped, words and
 * fillers cut), and the lineage's words with the corrections: what the voice detector is asked about.
 * Throws VALIDATION_ERROR as deriveEdit does for everything that needs no detector, so a bad request
 * is refused before any audio is read.
 */
export function keptStretches(input: Omit<DeriveInput, 'speech'>): { segments: Segment[]; words: EditWord[] } {
  const { base, change } = input;
  const duration = base.source.duration;
  const errs: FieldError[] = [];
  const known = new Set(input.words.map((w) => w.index));

  if (change.segments) checkStretches(errs, 'segments', change.segments, duration);
  if (change.trim) checkStretches(errs, 'trim', [change.trim], duration);
  change.remove_words?.forEach((idx, i) => {
    if (!known.has(idx)) errs.push({ field: `remove_words[${i}]`, rule: 'a word index of the edit' });
  });
  change.word_text?.forEach((c, i) => {
    if (!known.has(c.index)) errs.push({ field: `word_text[${i}].index`, rule: 'a word index of the edit' });
  });
  const minSilence = minSilenceSeconds(change);
  if (minSilence !== null && !(Number.isFinite(minSilence) && minSilence >= MIN_SILENCE_SECONDS && minSilence <= MAX_SILENCE_SECONDS)) {
    errs.push({ field: 'remove_silences.min_seconds', rule: `seconds ${MIN_SILENCE_SECONDS}..${MAX_SILENCE_SECONDS}` });
  }
  const z = change.zoom;
  if (z !== undefined && z !== 'none' && z !== 'subtle' && !(Number.isFinite(z) && z >= ZOOM_MIN && z <= ZOOM_MAX)) {
    errs.push({ field: 'zoom', rule: `number ${ZOOM_MIN}..${ZOOM_MAX}` });
  }
  if (errs.length) throw validationError(errs);

  // The lineage's words with the caption corrections.
  const fixes = new Map((change.word_text ?? []).map((c) => [c.index, c.text]));
  const words = input.words.map((w) => (fixes.has(w.index) ? { ...w, text: fixes.get(w.index)! } : { ...w }));

  // Kept stretches: replaced, trimmed, snapped; then words cut out.
  const snap = change.snap !== false;
  const snapped = (s: Segment): Segment => (snap ? { start: snapBoundary(s.start, words, duration), end: snapBoundary(s.end, words, duration) } : { ...s });
  let segments: Segment[] = change.segments ? mergeSegments(change.segments.map(snapped)) : editSegments(base).map((s) => ({ ...s }));
  let emptyField = change.segments ? 'segments' : 'base_edit_id';
  if (change.trim) {
    segments = keepOnly(segments, snapped(change.trim));
    emptyField = 'trim';
  }
  const isEmpty = () => segments.length === 0 || segmentsDuration(segments) < MIN_PIECE_SECONDS;
  if (isEmpty()) throw validationError([{ field: emptyField, rule: 'keeps something: the result is empty' }]);
  const cutWords = (indices: Set<number>, field: string) => {
    for (const cut of wordCuts(words, indices)) segments = cutOut(segments, cut);
    if (isEmpty()) throw validationError([{ field, rule: 'keeps something: the result is empty' }]);
  };
  if (change.remove_words?.length) cutWords(new Set(change.remove_words), 'remove_words');
  if (change.remove_fillers) cutWords(new Set(words.filter((w) => isFiller(w.text)).map((w) => w.index)), 'remove_fillers');
  // The longest output, checked before pauses are cut: the voice detector never listens to more.
  const outSeconds = segmentsDuration(segments.map((s) => ({ start: r3(s.start), end: r3(s.end) })));
  if (outSeconds > input.maxSeconds + 0.001) {
    throw validationError([{ field: change.trim ? 'trim' : 'segments', rule: `at most ${input.maxSeconds} seconds of output (${r3(outSeconds)} asked)` }]);
  }
  return { segments, words };
}

/**
 * The derived edit and the lineage's word list after the change. Throws VALIDATION_ERROR naming the
 * field: a stretch outside the source, overlapping or unordered stretches, an unknown word index, a
 * `remove_silences.min_seconds` or `zoom` out of range, an empty result, or more than `maxSeconds`
 * of output before pauses are cut. With `remove_silences`, `speech` must be given (keptStretches says where to listen).
 */
export function deriveEdit(input: DeriveInput): { spec: Edit; words: EditWord[] } {
  const { base, change, template } = input;
  const k = keptStretches(input);
  const words = k.words;
  let segments = k.segments;
  const minSilence = minSilenceSeconds(change);
  if (minSilence !== null) {
    if (!input.speech) throw new Error('remove_silences needs the speech of the kept stretches');
    // Cuts never split a recognised word: every word of the lineage inside the stretches is kept whole.
    for (const cut of silenceCuts(segments, input.speech, minSilence, wordsInSegments(words, segments))) segments = cutOut(segments, cut);
    if (segments.length === 0 || segmentsDuration(segments) < MIN_PIECE_SECONDS) {
      throw validationError([{ field: 'remove_silences', rule: 'keeps something: the result is empty' }]);
    }
  }
  segments = segments.map((s) => ({ start: r3(s.start), end: r3(s.end) }));

  // Layout, captions, title.
  const aspect = change.aspect_ratio ?? (input.applyTemplate ? template.layout.aspect : base.layout.aspect);
  const reframe = change.reframe ?? (input.applyTemplate ? template.layout.reframe : base.layout.reframe);
  // The template's choice for two faces when it is applied now, else the base's (kept only with `auto`).
  const twoFaces: TwoFaces = (input.applyTemplate ? template.layout.twoFaces : base.layout.twoFaces) ?? 'speaker';
  const layout: Record<string, unknown> = { aspect, reframe, ...(reframe === 'auto' && twoFaces === 'split' ? { twoFaces } : {}) };
  if (aspect === '9:16' && (reframe === 'speaker' || reframe === 'split' || reframe === 'auto')) {
    // The source's path covers stretches past the base's; without it, the base's own path.
    const range = { start: segments[0].start, end: segments[segments.length - 1].end };
    const path = input.sourceCropPath?.length
      ? cropPathSlice(input.sourceCropPath, range.start, range.end)
      : base.layout.aspect === '9:16'
        ? sourceTimeCropPath(base)
        : undefined;
    if (path?.length) layout.cropPath = path;
    // A split's halves from the source's face samples (none kept: it renders as speaker).
    const more = analysisLayout(reframe, aspect, base.source, range, undefined, input.sourceFaces, twoFaces);
    if (more.splitPaths) layout.splitPaths = more.splitPaths;
    if (more.shots) layout.shots = more.shots;
  }
  if (aspect === '9:16' && reframe === 'screen') {
    const range = { start: segments[0].start, end: segments[segments.length - 1].end };
    const screenPath = analysisLayout(reframe, aspect, base.source, range, undefined, input.sourceFaces).screenPath;
    if (screenPath) layout.screenPath = screenPath;
  }
  // Kept only when it zooms (makeEdit drops 1), so an edit without zoom hashes as before.
  const zoom = typeof change.zoom === 'number' ? change.zoom : change.zoom === 'none' ? ZOOM_MIN : (base.layout.zoom ?? ZOOM_MIN);
  if (zoom !== ZOOM_MIN) layout.zoom = zoom;
  const captionsOn = change.captions_enabled ?? base.captions !== null;
  const style = input.applyTemplate ? template.captions : (base.captions?.style ?? template.captions);
  const shown = wordsInSegments(words, segments)
    .filter((w) => w.text !== '')
    .map((w) => ({ start: w.start, end: w.end, text: w.text }));
  // The subtle punch-in, asked now or kept from the base (a number or `none` ends it), on the words kept.
  // A template applied now with `zoom: subtle` turns it on too (its `none` leaves the edit's choice).
  const templateSubtle = input.applyTemplate && template.layout.zoom === 'subtle';
  if (change.zoom === 'subtle' || (change.zoom === undefined && (base.layout.punchIn === 'subtle' || templateSubtle))) {
    layout.punchIn = 'subtle';
    const changes = ((layout.shots as EditShot[] | undefined) ?? []).slice(1).map((s) => s.start);
    const ps = punchIns(shown, input.sourceLoudness ?? [], segments, changes, input.sourcePitch);
    if (ps.length > 0) layout.punchIns = ps;
  }
  let title: { text: string; style: TitleStyle } | undefined;
  if (change.title !== undefined) title = change.title ? { text: change.title.text, style: base.title?.style ?? template.title } : undefined;
  else if (base.title) title = { text: base.title.text, style: input.applyTemplate ? template.title : base.title.style };

  const spec = makeEdit(
    {
      source: base.source,
      in: segments[0].start,
      out: segments[segments.length - 1].end,
      segments,
      layout,
      captions: captionsOn && shown.length > 0 ? { words: shown, style } : null,
      title,
      watermark: base.watermark,
      resolution: input.applyTemplate ? template.layout.resolution : base.resolution,
    },
    { fonts: input.fonts },
  );
  return { spec, words };
}
