import type { SettingsRepository } from '../settings/settings.records.js';
import { PERSONA_PRICES_SETTING, mergePrices, parsePrices, type PersonaPrices } from './persona-prices.js';

export interface PersonaPricesDeps {
  settings: Pick<SettingsRepository, 'get' | 'set'>;
}

/** The operator's persona prices (admin API and `cutroom admin personas prices`), one installation setting. */
export class PersonaPricesService {
  constructor(private readonly d: PersonaPricesDeps) {}

  async get(): Promise<PersonaPrices> {
    return parsePrices(await this.d.settings.get(PERSONA_PRICES_SETTING));
  }

  /** Changes some prices (400 VALIDATION_ERROR for anything but integers 0..100000 of the known fields). */
  async update(change: Partial<Record<keyof PersonaPrices, unknown>>): Promise<PersonaPrices> {
    const next = mergePrices(await this.get(), change);
    await this.d.settings.set(PERSONA_PRICES_SETTING, JSON.stringify(next));
    return next;
  }
}
