/**
 * Installation-wide values kept in the database (generated secrets, one-time claims), shared by every
 * process of a deployment. Storage: src/adapters/db/repositories/settings.repository.ts.
 */
export interface SettingsRepository {
  /** The stored value, or undefined when the setting was never created. */
  get(name: string): Promise<string | undefined>;
  /**
   * The setting's value, stored from `make()` when absent. Race-safe: concurrent callers (in one
   * process or several) all get the one stored value, and `created` is true for exactly the caller
   * whose value was stored.
   */
  getOrCreate(name: string, make: () => string): Promise<{ value: string; created: boolean }>;
  /** Stores the value (created or replaced); operator settings such as the persona prices. */
  set(name: string, value: string): Promise<void>;
}
