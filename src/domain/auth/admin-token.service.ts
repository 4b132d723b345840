import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../../adapters/db/database.js';
import { settings } from '../../adapters/db/schema.js';

const SETTING = 'admin_token_sha256';

function digest(s: string): Buffer {
  return createHash('sha256').update(s).digest();
}

/**
 * The operator's token for /admin/v1. From CUTROOM_ADMIN_TOKEN when set; otherwise generated once
 * per installation, its hash kept in the database so every process of a deployment accepts it.
 */
export class AdminTokenService {
  private hash?: Buffer;

  constructor(private readonly db: Db) {}

  /** Returns the token when this call generated it (to be shown once), else undefined. */
  async init(envToken?: string): Promise<string | undefined> {
    if (envToken) {
      this.hash = digest(envToken);
      return undefined;
    }
    const token = `adm_${randomBytes(32).toString('base64url')}`;
    const [inserted] = await this.db
      .insert(settings)
      .values({ key: SETTING, value: digest(token).toString('hex') })
      .onConflictDoNothing()
      .returning();
    if (inserted) {
      this.hash = digest(token);
      return token;
    }
    const [row] = await this.db.select().from(settings).where(eq(settings.key, SETTING));
    this.hash = Buffer.from(row.value, 'hex');
    return undefined;
  }

  verify(presented: string | undefined): boolean {
    if (!presented || !this.hash) return false;
    return timingSafeEqual(digest(presented), this.hash);
  }
}
