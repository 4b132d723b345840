import { InvalidArgumentError } from 'commander';

/** Parsers of `cutroom clip`'s steering flags: pure, a usage error (InvalidArgumentError) for a malformed value. */

/** `--prompt "…"`: what to look for, 1 to 500 characters. */
export function parsePrompt(raw: string): string {
  const p = raw.trim();
  if (!p) throw new InvalidArgumentError('expected what to look for, such as "the moments about pricing"');
  if (p.length > 500) throw new InvalidArgumentError('at most 500 characters');
  return p;
}

/** `--keywords a,b,"c d"`: words or phrases separated by commas, 1 to 20, none empty, repeats dropped. */
export function parseKeywords(raw: string): string[] {
  const parts = raw.split(',').map((p) => p.trim().replace(/\s+/g, ' '));
  if (parts.some((p) => !p)) throw new InvalidArgumentError('expected words or phrases separated by commas, such as pricing,free trial');
  const kept = parts.filter((p, i) => parts.findIndex((q) => q.toLowerCase() === p.toLowerCase()) === i);
  if (kept.length > 20) throw new InvalidArgumentError('at most 20 keywords');
  if (kept.some((k) => k.length > 80)) throw new InvalidArgumentError('a keyword has at most 80 characters');
  return kept;
}

/** `--length MIN-MAX` (or one number: every clip that long): seconds within 10–180, MIN ≤ MAX. */
export function parseLength(raw: string): { min: number; max: number } {
  const m = /^(\d+(?:\.\d+)?)(?:-(\d+(?:\.\d+)?))?$/.exec(raw.trim());
  if (!m) throw new InvalidArgumentError('expected <min>-<max> in seconds, such as 20-45');
  const min = Number(m[1]);
  const max = m[2] === undefined ? min : Number(m[2]);
  if (min < 10 || max > 180) throw new InvalidArgumentError('clip lengths are within 10 to 180 seconds');
  if (min > max) throw new InvalidArgumentError('the minimum must not be above the maximum');
  return { min, max };
}
