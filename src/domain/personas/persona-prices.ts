import { validationError } from '../errors.js';

/**
 * Persona prices in credits, set by the operator (admin API `PUT /admin/v1/personas/prices`, `cutroom
 * admin personas prices-set`), stored as one installation setting; never set by callers.
 */
export interface PersonaPrices {
  /** One portrait (create, regenerate). */
  image: number;
  /** Per started second of a swap, by quality. */
  swap_standard_per_second: number;
  swap_high_per_second: number;
}

export const DEFAULT_PERSONA_PRICES: PersonaPrices = { image: 1, swap_standard_per_second: 1, swap_high_per_second: 2 };

export const PERSONA_PRICES_SETTING = 'personas.prices';

/** The stored value read back: the defaults for anything missing or unreadable (pure). */
export function parsePrices(stored: string | undefined): PersonaPrices {
  if (!stored) return { ...DEFAULT_PERSONA_PRICES };
  try {
    const v = JSON.parse(stored) as Partial<PersonaPrices>;
    const out = { ...DEFAULT_PERSONA_PRICES };
    for (const k of Object.keys(out) as Array<keyof PersonaPrices>) {
      if (Number.isInteger(v[k]) && (v[k] as number) >= 0) out[k] = v[k] as number;
    }
    return out;
  } catch {
    return { ...DEFAULT_PERSONA_PRICES };
  }
}

/** An operator's change applied to the current prices: integers from 0 to 100000, else 400 VALIDATION_ERROR. */
export function mergePrices(current: PersonaPrices, change: Partial<Record<keyof PersonaPrices, unknown>>): PersonaPrices {
  const out = { ...current };
  const errors: Array<{ field: string; rule: string }> = [];
  for (const [k, v] of Object.entries(change)) {
    if (!(k in DEFAULT_PERSONA_PRICES)) errors.push({ field: k, rule: 'unknown_field' });
    else if (v === undefined) continue;
    else if (!Number.isInteger(v) || (v as number) < 0 || (v as number) > 100_000) errors.push({ field: k, rule: 'integer 0..100000' });
    else out[k as keyof PersonaPrices] = v as number;
  }
  if (errors.length) throw validationError(errors);
  return out;
}
