import type { SettingsRepository } from '../settings/settings.records.js';

const SETTING = 'credentials_key';

/** How a key is written down (src/adapters/publishing/credentials-crypto.ts): a new random one, and reading one back. */
export interface CredentialsKeyFormat {
  generate(): string;
  parse(written: string): Buffer;
}

export interface CredentialsKeyDeps {
  settings: SettingsRepository;
  format: CredentialsKeyFormat;
  envKey?: Buffer;
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

  constructor(private readonly d: CredentialsKeyDeps) {}

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
    if (this.d.envKey) {
      const value = await this.d.settings.get(SETTING);
      const stored = value === undefined ? undefined : this.d.format.parse(value);
      return stored && !stored.equals(this.d.envKey) ? [this.d.envKey, stored] : [this.d.envKey];
    }
    return [this.d.format.parse((await this.d.settings.getOrCreate(SETTING, () => this.d.format.generate())).value)];
  }
}
