import { computeCropPath, type CropPathOptions, type FaceSample } from './crop-path.js';
import type { Keyframe } from './crop-keyframes.js';

/**
 * The split layout's two cameras (pure): two faces, each in its own half of the output frame, stacked.
 * The faces of each sample are split into two tracks (left and right of each other; a lone face goes
 * to the track whose last position is nearer), and each track gets its own crop path from
 * computeCropPath, the speaker camera, run on that track's boxes only: the same dead zone, spring and
 * look-ahead as the speaker crop, with the aspect of half the output frame and a tighter crop
 * (splitCropScale: about SPLIT_CROP_FACES face heights high), so the other face stays out of it.
 */

/** Share of the range's samples that must show two faces or more for a split (else: the speaker crop). */
export const SPLIT_MIN_TWO_FACE_SHARE = 0.5;

type Box = FaceSample['boxes'][number];

function usable(b: Box): boolean {
  return b.width > 0 && b.height > 0 && b.score > 0;
}

const centreX = (b: Box) => b.x + b.width / 2;

/** Whether enough samples show two faces at once (SPLIT_MIN_TWO_FACE_SHARE); no samples: false. */
export function showsTwoFaces(samples: readonly FaceSample[]): boolean {
  if (samples.length === 0) return false;
  const two = samples.filter((s) => s.boxes.filter(usable).length >= 2).length;
  return two / samples.length >= SPLIT_MIN_TWO_FACE_SHARE;
}

/**
 * Each sample's faces as two tracks: `[left, right]`. With two faces or more, the two best-scored ones,
 * ordered by their centre's x; a lone face joins the track last seen nearer to it (before any: the
 * side of the frame it is on). Samples keep their times; a track's sample without its face is empty.
 */
export function splitTracks(samples: readonly FaceSample[]): [FaceSample[], FaceSample[]] {
  const left: FaceSample[] = [];
  const right: FaceSample[] = [];
  const last: [number | null, number | null] = [null, null];
  for (const s of [...samples].sort((a, b) => a.t - b.t)) {
    const boxes = s.boxes
      .filter(usable)
      .sort((a, b) => b.score - a.score)
      .slice(0, 2);
    const slot: [Box | null, Box | null] = [null, null];
    if (boxes.length === 2) {
      const [a, b] = centreX(boxes[0]) <= centreX(boxes[1]) ? boxes : [boxes[1], boxes[0]];
      slot[0] = a;
      slot[1] = b;
    } else if (boxes.length === 1) {
      const cx = centreX(boxes[0]);
      const dist = last.map((x) => (x === null ? Infinity : Math.abs(x - cx)));
      const side = dist[0] === Infinity && dist[1] === Infinity ? (cx < 0.5 ? 0 : 1) : dist[0] <= dist[1] ? 0 : 1;
      slot[side] = boxes[0];
    }
    slot.forEach((b, i) => {
      if (b) last[i] = centreX(b);
    });
    left.push({ t: s.t, boxes: slot[0] ? [slot[0]] : [] });
    right.push({ t: s.t, boxes: slot[1] ? [slot[1]] : [] });
  }
  return [left, right];
}

/** A half's crop is about this many face heights high… */
export const SPLIT_CROP_FACES = 3.2;
/** …and this share of the largest crop of its aspect at most and at least (a crop below the least magnifies the source too much). */
export const SPLIT_CROP_SCALE = { min: 0.45, max: 0.8 } as const;

/**
 * The share of the largest crop of a half's aspect that a split's crops take (pure): SPLIT_CROP_FACES
 * times the median face height of the samples, within SPLIT_CROP_SCALE, so two faces close together
 * still get one each.
 */
export function splitCropScale(samples: readonly FaceSample[], source: { width: number; height: number }, halfAspect: number): number {
  const heights = samples.flatMap((s) => s.boxes.filter(usable).map((b) => b.height)).sort((a, b) => a - b);
  if (heights.length === 0) return SPLIT_CROP_SCALE.max;
  const largestHeight = Math.min(1, source.width / halfAspect / source.height);
  const scale = (SPLIT_CROP_FACES * heights[heights.length >> 1]) / largestHeight;
  return Math.min(SPLIT_CROP_SCALE.max, Math.max(SPLIT_CROP_SCALE.min, scale));
}

export interface SplitPathOptions extends Pick<CropPathOptions, 'sceneCuts'> {
  /** The output frame's aspect (width / height); each half has twice it. Default 9/16. */
  aspect?: number;
}

/**
 * The two crop paths of a split over `[start, end]` of the source (source seconds in and out), top
 * first (the face on the left of the source on top), or null when the range does not show two faces
 * (showsTwoFaces). Computed over the range alone, as the speaker crop of a clip is, with the scene
 * cuts inside it.
 */
export function computeSplitPaths(
  samples: readonly FaceSample[],
  source: { width: number; height: number },
  range: { start: number; end: number },
  options: SplitPathOptions = {},
): [Keyframe[], Keyframe[]] | null {
  const { start, end } = range;
  if (!(end > start)) throw new RangeError('end must be after start');
  const inside = samples.filter((s) => s.t >= start - 1e-6 && s.t <= end + 1e-6);
  if (!showsTwoFaces(inside)) return null;
  const r3 = (v: number) => Math.round(v * 1000) / 1000;
  const shifted = inside.map((s) => ({ ...s, t: r3(s.t - start) }));
  const cuts = (options.sceneCuts ?? []).filter((c) => c > start && c < end).map((c) => r3(c - start));
  const half = { width: 2 * (options.aspect ?? 9 / 16), height: 1 };
  const cropScale = splitCropScale(inside, source, half.width);
  const paths = splitTracks(shifted).map((track) =>
    computeCropPath(track, source, { aspect: half, sceneCuts: cuts, duration: r3(end - start), cropScale }).map((k) => ({
      ...k,
      t: r3(k.t + start),
    })),
  );
  return [paths[0], paths[1]];
}
