import { eq } from 'drizzle-orm';
import type { Db } from '../../adapters/db/database.js';
import { settings } from '../../adapters/db/schema.js';
import { generateCredentialsKey, parseCredentialsKey } from '../../adapters/publishing/credentials-crypto.js';

const SETTING = 'credentials_key';

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
    private readonly db: Db,
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
      const [row] = await this.db.select().from(settings).where(eq(settings.key, SETTING));
      const stored = row ? parseCredentialsKey(row.value) : undefined;
      return stored && !stored.equals(this.envKey) ? [this.envKey, stored] : [this.envKey];
    }
    const [inserted] = await this.db
      .insert(settings)
      .values({ key: SETTING, value: generateCredentialsKey() })
      .onConflictDoNothing()
      .returning();
    if (inserted) return [parseCredentialsKey(inserted.value)];
    const [row] = await this.db.select().from(settings).where(eq(settings.key, SETTING));
    return [parseCredentialsKey(row.value)];
  }
}
