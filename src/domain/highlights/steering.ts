import { validationError } from '../errors.js';

/**
 * What a caller may say about the picks of a submission (POST /clips, templates, monitors): what to
 * look for (`prompt`), words or phrases a clip must say (`keywords`), and the clips' length range
 * (`clip_length`). All optional; without them the strategy alone decides (docs/highlights.md).
 */
export interface PickSteering {
  /** What to look for, in the video's language (≤ 500 characters). */
  prompt?: string;
  /** Words or phrases a clip must say (≤ 20). */
  keywords?: string[];
  /** Clip length range in seconds, within 10–180; overrides the strategy's minimum and maximum. */
  clip_length?: { min: number; max: number };
}

export const STEERING_LIMITS = {
  promptMaxChars: 500,
  maxKeywords: 20,
  keywordMaxChars: 80,
  minClipSeconds: 10,
  maxClipSeconds: 180,
} as const;

/**
 * The steering a caller sent, checked and normalised: prompt and keywords trimmed (inner whitespace
 * collapsed), a blank prompt or an empty keyword list left out, duplicate keywords (ignoring case)
 * dropped. Rules the request schema cannot say are refused with 400 VALIDATION_ERROR naming the
 * field: a blank keyword, a prompt of nothing but spaces, `clip_length.min` above `max`, a value
 * out of its range (the schema checks those too; the service checks again for callers without it).
 */
export function resolveSteering(input: PickSteering): PickSteering {
  const errors: Array<{ field: string; rule: string }> = [];
  const out: PickSteering = {};
  const clean = (s: string) => s.replace(/\s+/g, ' ').trim();
  if (input.prompt !== undefined) {
    const p = typeof input.prompt === 'string' ? clean(input.prompt) : '';
    if (typeof input.prompt !== 'string' || input.prompt.length > STEERING_LIMITS.promptMaxChars) errors.push({ field: 'prompt', rule: 'maxLength' });
    else if (!p) errors.push({ field: 'prompt', rule: 'blank' });
    else out.prompt = p;
  }
  if (input.keywords !== undefined) {
    if (!Array.isArray(input.keywords) || input.keywords.length > STEERING_LIMITS.maxKeywords) errors.push({ field: 'keywords', rule: 'maxItems' });
    else {
      const seen = new Set<string>();
      const kept: string[] = [];
      input.keywords.forEach((k, i) => {
        const c = typeof k === 'string' ? clean(k) : '';
        if (!c || !/[\p{L}\p{N}]/u.test(c)) errors.push({ field: `keywords.${i}`, rule: 'blank' });
        else if (c.length > STEERING_LIMITS.keywordMaxChars) errors.push({ field: `keywords.${i}`, rule: 'maxLength' });
        else if (!seen.has(c.toLowerCase())) {
          seen.add(c.toLowerCase());
          kept.push(c);
        }
      });
      if (kept.length > 0) out.keywords = kept;
    }
  }
  if (input.clip_length !== undefined) {
    const { min, max } = input.clip_length ?? ({} as { min: number; max: number });
    const inRange = (v: unknown) => typeof v === 'number' && Number.isFinite(v) && v >= STEERING_LIMITS.minClipSeconds && v <= STEERING_LIMITS.maxClipSeconds;
    if (!inRange(min)) errors.push({ field: 'clip_length.min', rule: 'range' });
    if (!inRange(max)) errors.push({ field: 'clip_length.max', rule: 'range' });
    if (inRange(min) && inRange(max)) {
      if (min > max) errors.push({ field: 'clip_length', rule: 'min_above_max' });
      else out.clip_length = { min, max };
    }
  }
  if (errors.length > 0) throw validationError(errors);
  return out;
}

/** True when the steering names something to look for (a prompt or keywords). */
export function isSteered(s: PickSteering | null | undefined): boolean {
  return !!s && (!!s.prompt || (s.keywords?.length ?? 0) > 0);
}

/** The strategy with the caller's `clip_length` in place of its minimum and maximum (its clip count stays). */
export function steeredStrategy<S extends { min_seconds: number; max_seconds: number }>(strategy: S, steering: PickSteering | null | undefined): S {
  const len = steering?.clip_length;
  return len ? { ...strategy, min_seconds: len.min, max_seconds: len.max } : strategy;
}
