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
    // Source time, like every time in an edit: the renderer slices it to the kept stretches.
    layout.cropPath = sliceKeyframes(input.cropPath9x16, start, end).map((k) => ({ ...k, t: Math.round((k.t + start) * 1000) / 1000 }));
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
