import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../../adapters/db/database.js';
import { settings } from '../../adapters/db/schema.js';

const SETTING = 'url_signing_secret';

/**
 * The HMAC secret of the service's own signed URLs. From CUTROOM_SIGNING_SECRET when set; otherwise
 * generated once per installation and kept in the database, so every process of a deployment signs and
 * verifies with the same secret and URLs survive restarts.
 */
export class SigningSecretService {
  constructor(private readonly db: Db) {}

  async resolve(envSecret?: string): Promise<string> {
    if (envSecret) return envSecret;
    const [inserted] = await this.db
      .insert(settings)
      .values({ key: SETTING, value: randomBytes(48).toString('base64url') })
      .onConflictDoNothing()
      .returning();
    if (inserted) return inserted.value;
    const [row] = await this.db.select().from(settings).where(eq(settings.key, SETTING));
    return row.value;
  }
}
