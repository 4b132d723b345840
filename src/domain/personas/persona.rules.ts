import { validationError } from '../errors.js';
import type { PricedCharges } from '../credits/priced-charge.js';

/**
 * Persona rules both services (personas.service.ts, persona-videos.service.ts) and the processor use: the
 * charging path, storage keys of portraits, per-second prices and feedback (the ledger's charge types are
 * CHARGE_TYPE, src/domain/credits/charge-types.ts).
 */

/** Charging as credit rule 6 says (always, even under free usage; 402 with `top_up_url`; refunds): the shared priced-charge path. */
export type PersonaCharges = Pick<PricedCharges, 'charge' | 'refund'>;

export interface FeedbackView {
  vote: string;
  reason: string | null;
  created_at: string;
}

export const versionImageKey = (workspaceId: string, personaId: string, versionId: string) => `personas/${workspaceId}/${personaId}/${versionId}.png`;
export const presetImageKey = (presetId: string) => `personas/presets/${presetId}.png`;

/** A per-second price with the plan's discount, as the catalog shows it (credits, up to 4 decimals; a swap's total is rounded up once). */
export function perSecond(base: number, discountPercent: number): number {
  const d = Math.min(Math.max(discountPercent, 0), 100);
  return Math.round(base * (1 - d / 100) * 10_000) / 10_000;
}

export function feedbackView(vote: string | null, reason: string | null, at: Date | null): FeedbackView | null {
  return vote && at ? { vote, reason, created_at: at.toISOString() } : null;
}

/** `{ vote, reason }`: `reason` required with `down` (1..500 characters); 400 VALIDATION_ERROR otherwise. */
export function checkFeedback(input: { vote: string; reason?: string | null }): { vote: string; reason: string | null } {
  const reason = input.reason?.trim() || null;
  if (input.vote !== 'up' && input.vote !== 'down') throw validationError([{ field: 'vote', rule: 'up_or_down' }]);
  if (input.vote === 'down' && !reason) throw validationError([{ field: 'reason', rule: 'required_with_down' }]);
  if (reason && reason.length > 500) throw validationError([{ field: 'reason', rule: 'at_most_500_chars' }]);
  return { vote: input.vote, reason };
}
