import { eq } from 'drizzle-orm';
import type { SettingsRepository } from '../../../domain/settings/settings.records.js';
import type { Db } from '../database.js';
import { settings } from '../schema/index.js';

/** Installation-wide values (table `settings`). */
export class DrizzleSettingsRepository implements SettingsRepository {
  constructor(private readonly db: Db) {}

  async get(name: string): Promise<string | undefined> {
    const [row] = await this.db.select({ value: settings.value }).from(settings).where(eq(settings.key, name));
    return row?.value;
  }

  async getOrCreate(name: string, make: () => string): Promise<{ value: string; created: boolean }> {
    // The insert waits for a concurrent one of the same key to commit, then does nothing: the read sees the winner's value.
    const [inserted] = await this.db.insert(settings).values({ key: name, value: make() }).onConflictDoNothing().returning({ value: settings.value });
    if (inserted) return { value: inserted.value, created: true };
    const value = await this.get(name);
    if (value === undefined) throw new Error(`setting ${name} vanished after a conflicting insert`);
    return { value, created: false };
  }

  async set(name: string, value: string): Promise<void> {
    await this.db.insert(settings).values({ key: name, value }).onConflictDoUpdate({ target: settings.key, set: { value } });
  }
}
