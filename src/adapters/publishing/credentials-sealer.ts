import type { CredentialsSealer } from '../../domain/publishing/connections.records.js';
import type { Credentials } from '../../ports/publisher.js';
import { decryptCredentials, encryptCredentials } from './credentials-crypto.js';

/** The installation's credentials keys (CredentialsKeyService): the current one first. */
export interface CredentialsKeys {
  current(): Promise<Buffer>;
  all(): Promise<Buffer[]>;
}

/** Connection credentials sealed with AES-256-GCM (credentials-crypto.ts) under the installation's keys. */
export class AesCredentialsSealer implements CredentialsSealer {
  constructor(private readonly keys: CredentialsKeys) {}

  async seal(credentials: Record<string, unknown>): Promise<string> {
    return encryptCredentials(credentials, await this.keys.current());
  }

  async open(sealed: string): Promise<Credentials> {
    return decryptCredentials(sealed, await this.keys.all()) as Credentials;
  }
}
