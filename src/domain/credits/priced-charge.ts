import type { Tx } from '../../ports/transactions.js';
import { DomainError } from '../errors.js';
import type { ChargeResult, CreditsService } from './credits.service.js';

/**
 * The one priced-charge path of personas and generations (spec: credit rule 6, 402 with `top_up_url`,
 * 409 PRICE_CHANGED): the service measures the price from its catalog (per image or per second, the
 * plan's discount applied), refuses a caller's `credits` that differ before anything is charged, charges
 * even under free usage, and refunds automatically when the work fails.
 */

/** A catalog price: credits per image or per second of video (non-negative, may be fractional). */
export interface UnitPrice {
  perImage?: number;
  perSecond?: number;
}

/**
 * Credits for `units` (images, or seconds of video) at `unitPrice`, the plan's discount applied, rounded
 * up to a whole credit (floating noise removed first). Free when the price is 0 or the discount is 100 %;
 * any other non-empty work costs at least 1 credit (pure).
 */
export function measuredPrice(unitPrice: number, units: number, discountPercent = 0): number {
  if (!(unitPrice > 0) || !(units > 0)) return 0;
  const discount = Math.min(Math.max(discountPercent, 0), 100);
  if (discount >= 100) return 0;
  const exact = unitPrice * units * (1 - discount / 100);
  return Math.max(1, Math.ceil(Math.round(exact * 1e6) / 1e6));
}

/** 409 PRICE_CHANGED with the measured `credits` when the caller's differ (pure; nothing is charged). */
export function assertQuotedPrice(measured: number, quoted: number): void {
  if (quoted !== measured) throw new DomainError('PRICE_CHANGED', { credits: measured });
}

export interface PricedChargeInput {
  workspaceId: string;
  /** What the caller agreed to pay (`credits` of the request). */
  quoted: number;
  /** What the service measured (measuredPrice). */
  measured: number;
  reason: string;
  jobType: string;
  jobId: string;
}

export interface PricedChargesDeps {
  credits: Pick<CreditsService, 'charge' | 'refund'>;
  /** CUTROOM_TOP_UP_URL (src/config/billing.env.ts); null when the operator set none. */
  topUpUrl: string | null;
}

/** Charges and refunds of priced work through CreditsService (one charge and one refund per job). */
export class PricedCharges {
  constructor(private readonly d: PricedChargesDeps) {}

  /**
   * Checks the quoted price (409 PRICE_CHANGED, nothing charged) and charges the measured credits, free
   * usage or not (402 INSUFFICIENT_CREDITS with `credits_needed`, `current_balance`, `top_up_url`). Pass
   * the transaction that creates the job, so the charge and the job commit together.
   */
  async charge(input: PricedChargeInput, tx?: Tx): Promise<ChargeResult> {
    assertQuotedPrice(input.measured, input.quoted);
    return this.d.credits.charge(
      {
        workspaceId: input.workspaceId,
        amount: input.measured,
        reason: input.reason,
        jobType: input.jobType,
        jobId: input.jobId,
        ignoreFreeUsage: true,
        insufficientExtra: { scope: 'workspace', is_owner: true, top_up_url: this.d.topUpUrl },
      },
      tx,
    );
  }

  /** Gives the job's charge back (no-op when it was not charged or already refunded). */
  async refund(input: { workspaceId: string; jobType: string; jobId: string; reason: string }, tx?: Tx): Promise<void> {
    await this.d.credits.refund(input, tx);
  }
}
