import { describe, expect, it } from 'vitest';
import { DomainError } from '../../src/domain/errors.js';
import { PricedCharges, assertQuotedPrice, measuredPrice } from '../../src/domain/credits/priced-charge.js';
import type { ChargeInput } from '../../src/domain/credits/credits.service.js';
import { loadBillingConfig } from '../../src/config/billing.env.js';
import { ConfigError } from '../../src/config/parse.js';

describe('measuredPrice', () => {
  it('multiplies the unit price by the units, applies the discount and rounds up to a whole credit', () => {
    expect(measuredPrice(4, 1)).toBe(4);
    expect(measuredPrice(2, 5)).toBe(10);
    expect(measuredPrice(2, 5, 25)).toBe(8); // 7.5 → 8
    expect(measuredPrice(0.5, 3)).toBe(2); // 1.5 → 2
    expect(measuredPrice(0.1, 3)).toBe(1); // 0.30000000000000004 → 1, not 2
    expect(measuredPrice(0.3, 10)).toBe(3); // 2.9999999999999996 → 3
  });

  it('costs at least 1 credit for paid work, nothing when free or fully discounted', () => {
    expect(measuredPrice(0.01, 1)).toBe(1);
    expect(measuredPrice(0, 10)).toBe(0);
    expect(measuredPrice(5, 0)).toBe(0);
    expect(measuredPrice(5, 2, 100)).toBe(0);
    expect(measuredPrice(5, 2, 150)).toBe(0);
    expect(measuredPrice(5, 2, -10)).toBe(10);
  });
});

describe('assertQuotedPrice', () => {
  it('passes the measured price and refuses any other with PRICE_CHANGED carrying the measured credits', () => {
    expect(() => assertQuotedPrice(8, 8)).not.toThrow();
    for (const quoted of [7, 9, 0]) {
      try {
        assertQuotedPrice(8, quoted);
        expect.unreachable();
      } catch (err) {
        expect(err).toBeInstanceOf(DomainError);
        expect(err).toMatchObject({ code: 'PRICE_CHANGED', extra: { credits: 8 } });
      }
    }
  });
});

describe('PricedCharges', () => {
  function recorder() {
    const charges: ChargeInput[] = [];
    const refunds: unknown[] = [];
    return {
      charges,
      refunds,
      credits: {
        charge: async (input: ChargeInput) => {
          charges.push(input);
          return { entryId: 'led_1', charged: input.amount, waived: false, balanceAfter: 0 };
        },
        refund: async (input: unknown) => {
          refunds.push(input);
          return null;
        },
      },
    };
  }

  it('charges the measured credits ignoring free usage, with top_up_url for the 402', async () => {
    const r = recorder();
    const priced = new PricedCharges({ credits: r.credits, topUpUrl: 'https://example.com/billing' });
    await priced.charge({ workspaceId: 'ws_1', quoted: 6, measured: 6, reason: 'generation', jobType: 'generation', jobId: 'gen_1' });
    expect(r.charges).toEqual([
      {
        workspaceId: 'ws_1',
        amount: 6,
        reason: 'generation',
        jobType: 'generation',
        jobId: 'gen_1',
        ignoreFreeUsage: true,
        insufficientExtra: { scope: 'workspace', is_owner: true, top_up_url: 'https://example.com/billing' },
      },
    ]);
    await priced.refund({ workspaceId: 'ws_1', jobType: 'generation', jobId: 'gen_1', reason: 'failed' });
    expect(r.refunds).toEqual([{ workspaceId: 'ws_1', jobType: 'generation', jobId: 'gen_1', reason: 'failed' }]);
  });

  it('charges nothing when the quoted price differs', async () => {
    const r = recorder();
    await expect(
      new PricedCharges({ credits: r.credits, topUpUrl: null }).charge({ workspaceId: 'w', quoted: 5, measured: 6, reason: 'x', jobType: 'g', jobId: 'j' }),
    ).rejects.toMatchObject({
      code: 'PRICE_CHANGED',
      extra: { credits: 6 },
    });
    expect(r.charges).toEqual([]);
  });
});

describe('CUTROOM_TOP_UP_URL', () => {
  it('is an absolute http(s) URL, null when unset', () => {
    expect(loadBillingConfig({})).toEqual({ topUpUrl: null });
    expect(loadBillingConfig({ CUTROOM_TOP_UP_URL: 'https://shop.example.com/credits' })).toEqual({ topUpUrl: 'https://shop.example.com/credits' });
    expect(() => loadBillingConfig({ CUTROOM_TOP_UP_URL: 'shop/credits' })).toThrow(ConfigError);
    expect(() => loadBillingConfig({ CUTROOM_TOP_UP_URL: 'ftp://x.example.com' })).toThrow(ConfigError);
  });
});
