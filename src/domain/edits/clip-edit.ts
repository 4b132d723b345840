import type { Keyframe } from '../reframe/crop-keyframes.js';
import { sliceKeyframes } from '../reframe/crop-keyframes.js';
import { talksInTurns, withActiveSpeaker, type VoiceSpan } from '../reframe/active-speaker.js';
import { clipShots, type ShotSample } from '../reframe/shots.js';
import { computeSplitPaths } from '../reframe/split-path.js';
import { computeScreenFacePath } from '../reframe/screen-path.js';
import { makeEdit, type CaptionWord, type Edit, type EditShot } from './edit.js';
import { punchIns } from '../reframe/punch-in.js';
import type { Aspect, CaptionStyle, ReframeMode, Resolution, TemplateZoom, TwoFaces } from './caption-styles.js';

/** What a template contributes to a clip's edit. */
export interface EditTemplate {
  captions: CaptionStyle;
  /** `zoom` absent: `none` (templates stored before it existed). */
  layout: { aspect: Aspect; reframe: ReframeMode; resolution: Resolution; zoom?: TemplateZoom; twoFaces?: TwoFaces };
}

export interface ClipEditInput {
  source: { key: string; duration: number; width: number; height: number };
  start: number;
  end: number;
  /** Transcript words on the source timeline; only those inside the clip are kept. */
  words: readonly CaptionWord[];
  /** The 9:16 speaker-following crop path of the source (video analysis). */
  cropPath9x16?: readonly Keyframe[];
  /** The source's face samples and scene cuts (source time; the submission's analysis), when kept: `split` is computed from them. */
  faces?: SourceFaces;
  template: EditTemplate;
  watermark: boolean;
  /** The source's loudness per second (LUFS, the analysis'): a template with `zoom: subtle` punches in on the loud words. */
  loudness?: readonly number[];
  /** The source's pitch per second (Hz, the analysis'): pitch peaks are emphasis too. */
  pitch?: readonly number[];
}

/** The face samples of a source's analysis (source seconds), with its size and scene cuts. */
export interface SourceFaces {
  samples: readonly ShotSample[];
  sceneCuts: readonly number[];
  /** The voice stretches heard (source seconds), on analyses that measure mouths: `auto` finds who talks in turns with them. */
  speech?: readonly VoiceSpan[];
}

/** A stored analysis' face samples and scene cuts (for `split`), or undefined on rows stored before the samples were kept. */
export function sourceFaces(analysis: unknown): SourceFaces | undefined {
  const a = analysis as { faces?: unknown; sceneCuts?: unknown; speech?: unknown } | null | undefined;
  if (!a || !Array.isArray(a.faces)) return undefined;
  return {
    samples: a.faces as ShotSample[],
    sceneCuts: Array.isArray(a.sceneCuts) ? (a.sceneCuts as number[]) : [],
    ...(Array.isArray(a.speech) ? { speech: a.speech as VoiceSpan[] } : {}),
  };
}

/** The layout fields computed from the analysis (see Edit['layout']). */
export interface AnalysisLayout {
  cropPath?: Keyframe[];
  splitPaths?: [Keyframe[], Keyframe[]];
  screenPath?: Keyframe[];
  shots?: EditShot[];
}

/**
 * The shots of an `auto` edit over `[start, end]` (clipShots), each with its layout's paths: a split
 * shot without two faces' halves becomes `speaker`; a screen shot without a face keeps no path (the
 * screen on a blurred fill). Two faces that talk in turns (the mouths measured by the analysis, with
 * the voice heard: active-speaker.ts) get the active `speaker` when `twoFaces` prefers it (the
 * default), else `split`; two faces without that signal (older analyses, nobody heard, one face
 * talking all along) stay `split`.
 */
export function autoShots(
  faces: SourceFaces,
  source: { width: number; height: number },
  range: { start: number; end: number },
  twoFaces: 'speaker' | 'split' = 'speaker',
): EditShot[] {
  let subjects: ReturnType<typeof withActiveSpeaker> | undefined;
  return clipShots(faces.samples, faces.sceneCuts, range).map((s): EditShot => {
    const shot = { start: s.start, end: s.end };
    const opts = { sceneCuts: faces.sceneCuts, aspect: 9 / 16 };
    if (s.layout === 'split' && twoFaces === 'speaker' && faces.speech) {
      subjects ??= withActiveSpeaker(faces.samples, faces.speech, { sceneCuts: faces.sceneCuts });
      if (talksInTurns(subjects, shot)) return { ...shot, reframe: 'speaker' };
    }
    if (s.layout === 'split') {
      const splitPaths = computeSplitPaths(faces.samples, source, shot, opts);
      return splitPaths ? { ...shot, reframe: 'split', splitPaths } : { ...shot, reframe: 'speaker' };
    }
    if (s.layout === 'screen') {
      const screenPath = computeScreenFacePath(faces.samples, source, shot, opts);
      return { ...shot, reframe: 'screen', ...(screenPath ? { screenPath } : {}) };
    }
    return { ...shot, reframe: s.layout };
  });
}

/**
 * The layout fields a reframe takes from the analysis, for the stretch `[start, end]` in 9:16: the
 * speaker crop path (for `speaker` and `split`) and, for `split` when two faces are seen, the two
 * halves' paths; for `screen` when a face is seen, the face's path below the screen; for `auto` the
 * speaker path and the shots (autoShots). Other aspects and modes take none.
 */
export function analysisLayout(
  reframe: ReframeMode,
  aspect: Aspect,
  source: { width: number; height: number },
  range: { start: number; end: number },
  cropPath9x16: readonly Keyframe[] | undefined,
  faces: SourceFaces | undefined,
  twoFaces: TwoFaces = 'speaker',
): AnalysisLayout {
  if (aspect !== '9:16') return {};
  if (reframe === 'screen') {
    const screenPath = faces ? computeScreenFacePath(faces.samples, source, range, { sceneCuts: faces.sceneCuts, aspect: 9 / 16 }) : null;
    return screenPath ? { screenPath } : {};
  }
  if (reframe !== 'speaker' && reframe !== 'split' && reframe !== 'auto') return {};
  const out: AnalysisLayout = {};
  if (cropPath9x16 && cropPath9x16.length > 0) out.cropPath = cropPathSlice(cropPath9x16, range.start, range.end);
  if (reframe === 'auto' && faces) out.shots = autoShots(faces, source, range, twoFaces);
  if (reframe === 'split' && faces) {
    const split = computeSplitPaths(faces.samples, source, range, { sceneCuts: faces.sceneCuts, aspect: 9 / 16 });
    if (split) out.splitPaths = split;
  }
  return out;
}

/** The edit of a clip: its stretch of the source, reframed and captioned as the template says (pure). */
export function buildClipEdit(input: ClipEditInput): Edit {
  const { start, end, template } = input;
  const words = input.words.filter((w) => w.end > start && w.start < end).map((w) => ({ start: w.start, end: w.end, text: w.text }));
  const layout: Record<string, unknown> = {
    aspect: template.layout.aspect,
    reframe: template.layout.reframe,
    ...analysisLayout(template.layout.reframe, template.layout.aspect, input.source, { start, end }, input.cropPath9x16, input.faces, template.layout.twoFaces),
    // Kept only when it is not the default, so edits of templates without it hash as before.
    ...(template.layout.reframe === 'auto' && template.layout.twoFaces === 'split' ? { twoFaces: 'split' } : {}),
  };
  if (template.layout.zoom === 'subtle')
    Object.assign(
      layout,
      templatePunchIn(words, { loudness: input.loudness ?? [], pitch: input.pitch }, { start, end }, layout.shots as EditShot[] | undefined),
    );
  return makeEdit({
    source: input.source,
    in: start,
    out: end,
    layout,
    captions: words.length > 0 ? { words, style: template.captions } : null,
    watermark: input.watermark,
    resolution: template.layout.resolution,
  });
}

/**
 * The punch-in a template with `zoom: subtle` gives a stretch (punch-in.ts): `punchIn: 'subtle'` and,
 * when a word stands out, its `punchIns`, kept clear of the shots' layout changes.
 */
export function templatePunchIn(
  words: ReadonlyArray<{ start: number; end: number }>,
  audio: { loudness: readonly number[]; pitch?: readonly number[] },
  range: { start: number; end: number } | ReadonlyArray<{ start: number; end: number }>,
  shots: readonly EditShot[] | undefined,
): { punchIn: 'subtle'; punchIns?: ReturnType<typeof punchIns> } {
  const ps = punchIns(
    words,
    audio.loudness,
    range,
    (shots ?? []).slice(1).map((s) => s.start),
    audio.pitch,
  );
  return { punchIn: 'subtle', ...(ps.length > 0 ? { punchIns: ps } : {}) };
}

/**
 * The part of the source's crop path from `start` to `end`, in source time like every time in an
 * edit (the renderer slices it again to the kept stretches).
 */
export function cropPathSlice(path: readonly Keyframe[], start: number, end: number): Keyframe[] {
  return sliceKeyframes(path, start, end).map((k) => ({ ...k, t: Math.round((k.t + start) * 1000) / 1000 }));
}

/**
 * An edit's crop path in source time. Clip edits stored before crop paths were kept in source time
 * hold a clip-time path (starting at 0 for a clip that does not): it is moved back by `in`.
 */
export function sourceTimeCropPath(edit: Pick<Edit, 'in' | 'layout'>): readonly Keyframe[] | undefined {
  const path = edit.layout.cropPath;
  const legacy = !!path?.length && edit.in > 0 && path[0].t < edit.in - 0.001;
  return legacy ? path?.map((k) => ({ ...k, t: Math.round((k.t + edit.in) * 1000) / 1000 })) : path;
}
