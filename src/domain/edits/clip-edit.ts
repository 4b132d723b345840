import type { Keyframe } from '../reframe/crop-keyframes.js';
import { sliceKeyframes } from '../reframe/crop-keyframes.js';
import { makeEdit, type CaptionWord, type Edit } from './edit.js';
import type { Aspect, CaptionStyle, ReframeMode, Resolution } from './caption-styles.js';

/** What a template contributes to a clip's edit. */
export interface EditTemplate {
  captions: CaptionStyle;
  layout: { aspect: Aspect; reframe: ReframeMode; resolution: Resolution };
}

export interface ClipEditInput {
  source: { key: string; duration: number; width: number; height: number };
  start: number;
  end: number;
  /** Transcript words on the source timeline; only those inside the clip are kept. */
  words: readonly CaptionWord[];
  /** The 9:16 speaker-following crop path of the source (video analysis). */
  cropPath9x16?: readonly Keyframe[];
  template: EditTemplate;
  watermark: boolean;
}

/** The edit of a clip: its stretch of the source, reframed and captioned as the template says (pure). */
export function buildClipEdit(input: ClipEditInput): Edit {
  const { start, end, template } = input;
  const words = input.words.filter((w) => w.end > start && w.start < end).map((w) => ({ start: w.start, end: w.end, text: w.text }));
  const layout: Record<string, unknown> = { aspect: template.layout.aspect, reframe: template.layout.reframe };
  if (template.layout.reframe === 'speaker' && template.layout.aspect === '9:16' && input.cropPath9x16 && input.cropPath9x16.length > 0) {
    layout.cropPath = cropPathSlice(input.cropPath9x16, start, end);
  }
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
