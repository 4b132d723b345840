/** Pure credit rules (spec: workspace and credit rules 2 and 7). */

export interface FreeUsageState {
  unlimited: boolean;
  unlimitedUntil: Date | null;
}

/** Free usage is on while the flag is set and the window has not ended (null = no end). */
export function isFreeUsageActive(ws: FreeUsageState, now: Date = new Date()): boolean {
  return ws.unlimited && (ws.unlimitedUntil === null || ws.unlimitedUntil.getTime() > now.getTime());
}

/** The end of the active window as the API reports it: null when off or open-ended. */
export function freeUsageUntil(ws: FreeUsageState, now: Date = new Date()): Date | null {
  return isFreeUsageActive(ws, now) ? ws.unlimitedUntil : null;
}

/**
 * Credits for processing `seconds` of video: 1 credit per minute, the plan's discount applied,
 * then rounded up to a whole credit. Any non-empty stretch costs at least 1 credit.
 */
export function creditsForSeconds(seconds: number, discountPercent = 0): number {
  if (!(seconds > 0)) return 0;
  const discount = Math.min(Math.max(discountPercent, 0), 100);
  const exact = (seconds / 60) * (1 - discount / 100);
  // Round away floating noise before the ceiling (e.g. 2.0000000000000004 must stay 2).
  const cost = Math.ceil(Math.round(exact * 1e6) / 1e6);
  return discount >= 100 ? 0 : Math.max(cost, 1);
}
