import { computeCropPath, type FaceSample } from './crop-path.js';
import type { Keyframe } from './crop-keyframes.js';

/**
 * The screen layout's face camera (pure). A screen or slide is shown whole, scaled to the output's
 * width, at the top; the space left below shows the speaker's face, cropped by the speaker camera
 * (computeCropPath) with the aspect of that space and a crop about two faces high, so a small face
 * in a corner fills it. Without a face the screen sits on a blurred fill (the `fit` look).
 */

/** Share of the range's samples that must show a face for the face part (else: the screen on a blurred fill). */
export const SCREEN_MIN_FACE_SHARE = 0.5;
/** The face crop is this many face heights high (within the source): a corner face fills its part. */
export const SCREEN_FACE_CROP_FACES = 2;

/**
 * The heights of the two parts of a screen frame of `width` x `height` (even pixels): the source scaled to
 * the width on top, the rest below. `face` is 0 when the source is too tall to leave room.
 */
export function screenParts(source: { width: number; height: number }, frame: { width: number; height: number }): { screen: number; face: number } {
  const screen = Math.min(frame.height, Math.max(2, Math.round((frame.width * source.height) / source.width / 2) * 2));
  return { screen, face: frame.height - screen };
}

/** Width / height of the face part for an output aspect (width / height of the output), or 0 without room. */
export function screenFaceAspect(source: { width: number; height: number }, outputAspect: number): number {
  const rest = 1 / outputAspect - source.height / source.width;
  return rest > 0.05 ? 1 / rest : 0;
}

/**
 * The face part's crop path over `[start, end]` (source seconds in and out), or null when the range
 * shows no face in at least SCREEN_MIN_FACE_SHARE of its samples, or the output leaves no room below
 * the screen.
 */
export function computeScreenFacePath(
  samples: readonly FaceSample[],
  source: { width: number; height: number },
  range: { start: number; end: number },
  options: { sceneCuts?: readonly number[]; aspect?: number } = {},
): Keyframe[] | null {
  const { start, end } = range;
  if (!(end > start)) throw new RangeError('end must be after start');
  const aspect = screenFaceAspect(source, options.aspect ?? 9 / 16);
  if (aspect === 0) return null;
  const inside = samples.filter((s) => s.t >= start - 1e-6 && s.t <= end + 1e-6);
  const heights = inside
    .map((s) => Math.max(0, ...s.boxes.filter((b) => b.width > 0 && b.height > 0 && b.score > 0).map((b) => b.height)))
    .filter((h) => h > 0)
    .sort((a, b) => a - b);
  if (inside.length === 0 || heights.length / inside.length < SCREEN_MIN_FACE_SHARE) return null;
  const faceHeight = heights[heights.length >> 1];
  // The largest crop of the aspect is the source's full height (or width); two faces high is a share of it.
  const largestHeight = Math.min(1, source.width / aspect / source.height);
  const cropScale = Math.min(1, (SCREEN_FACE_CROP_FACES * faceHeight) / largestHeight);
  const r3 = (v: number) => Math.round(v * 1000) / 1000;
  const shifted = inside.map((s) => ({ ...s, t: r3(s.t - start) }));
  const cuts = (options.sceneCuts ?? []).filter((c) => c > start && c < end).map((c) => r3(c - start));
  return computeCropPath(shifted, source, {
    aspect: { width: aspect, height: 1 },
    sceneCuts: cuts,
    duration: r3(end - start),
    cropScale,
    verticalAnchor: 0.5,
  }).map((k) => ({ ...k, t: r3(k.t + start) }));
}
