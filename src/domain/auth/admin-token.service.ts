import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { SettingsRepository } from '../settings/settings.records.js';

const SETTING = 'admin_token_sha256';

function digest(s: string): Buffer {
  return createHash('sha256').update(s).digest();
}

export interface AdminTokenDeps {
  settings: SettingsRepository;
}

/**
 * The operator's token for /admin/v1. From CUTROOM_ADMIN_TOKEN when set; otherwise generated once
 * per installation, its hash kept in the database so every process of a deployment accepts it.
 */
export class AdminTokenService {
  private hash?: Buffer;

  constructor(private readonly d: AdminTokenDeps) {}

  /** Returns the token when this call generated it (to be shown once), else undefined. */
  async init(envToken?: string): Promise<string | undefined> {
    if (envToken) {
      this.hash = digest(envToken);
      return undefined;
    }
    const token = `adm_${randomBytes(32).toString('base64url')}`;
    const stored = await this.d.settings.getOrCreate(SETTING, () => digest(token).toString('hex'));
    this.hash = Buffer.from(stored.value, 'hex');
    return stored.created ? token : undefined;
  }

  verify(presented: string | undefined): boolean {
    if (!presented || !this.hash) return false;
    return timingSafeEqual(digest(presented), this.hash);
  }
}
