import type { SettingsRepository } from '../settings/settings.records.js';

const SETTING = 'credentials_key';

/** How a key is written down (src/adapters/publishing/credentials-crypto.ts): a new random one, and reading one back. */
export interface CredentialsKeyFormat {
  generate(): string;
  parse(written: string): Buffer;
}

/**
 * The key that seals connection credentials. CUTROOM_CREDENTIALS_KEY when set; otherwise one generated
 * once per installation and kept in the `settings` table (like the URL signing secret), so every process
 * of a deployment uses the same key and credentials survive restarts. When the environment key is set
 * and a generated one exists too, the generated one still opens what it sealed (moving to an explicit key
 * needs no reconnection; credentials are sealed again with the new key when they are next saved).
 */
export class CredentialsKeyService {
  private keys?: Promise<Buffer[]>;

  constructor(
    private readonly settings: SettingsRepository,
    private readonly format: CredentialsKeyFormat,
    private readonly envKey?: Buffer,
  ) {}

  /** The key new credentials are sealed with. */
  async current(): Promise<Buffer> {
    return (await this.all())[0];
  }

  /** Every key that may open stored credentials, the current one first. */
  all(): Promise<Buffer[]> {
    this.keys ??= this.load().catch((err) => {
      this.keys = undefined;
      throw err;
    });
    return this.keys;
  }

  private async load(): Promise<Buffer[]> {
    if (this.envKey) {
      const value = await this.settings.get(SETTING);
      const stored = value === undefined ? undefined : this.format.parse(value);
      return stored && !stored.equals(this.envKey) ? [this.envKey, stored] : [this.envKey];
    }
    return [this.format.parse((await this.settings.getOrCreate(SETTING, () => this.format.generate())).value)];
  }
}
