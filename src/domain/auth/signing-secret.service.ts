import { randomBytes } from 'node:crypto';
import type { SettingsRepository } from '../settings/settings.records.js';

const SETTING = 'url_signing_secret';

export interface SigningSecretDeps {
  settings: SettingsRepository;
}

/**
 * The HMAC secret of the service's own signed URLs. From CUTROOM_SIGNING_SECRET when set; otherwise
 * generated once per installation and kept in the database, so every process of a deployment signs and
 * verifies with the same secret and URLs survive restarts.
 */
export class SigningSecretService {
  constructor(private readonly d: SigningSecretDeps) {}

  async resolve(envSecret?: string): Promise<string> {
    if (envSecret) return envSecret;
    return (await this.d.settings.getOrCreate(SETTING, () => randomBytes(48).toString('base64url'))).value;
  }
}
