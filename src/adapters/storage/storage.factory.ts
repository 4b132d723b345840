import path from 'node:path';
import type { StorageConfig } from '../../config/storage.env.js';
import type { Storage } from '../../ports/storage.js';
import { MAX_PARTS } from './storage-keys.js';
import { LocalStorage } from './local.storage.js';
import { S3Storage } from './s3.storage.js';

export interface StorageFactoryOptions {
  /** From loadStorageConfig (src/config/storage.env.ts). */
  storage: StorageConfig;
  /** The data folder: local objects live in `<dataDir>/files`, S3 downloads in `<dataDir>/tmp`. */
  dataDir: string;
  /** Public origin of the service; the local driver's signed URLs start with it. */
  publicBaseUrl: string;
  /** The installation's generated signing secret, asked when CUTROOM_SIGNING_SECRET is unset (needed by the local driver then). */
  storedSigningSecret?: () => Promise<string>;
}

/** The storage driver chosen by CUTROOM_STORAGE. */
export async function createStorage(opts: StorageFactoryOptions): Promise<Storage> {
  const cfg = opts.storage;
  if (cfg.driver === 's3') {
    return new S3Storage({
      bucket: cfg.bucket,
      region: cfg.region,
      endpoint: cfg.endpoint,
      forcePathStyle: cfg.forcePathStyle,
      credentials: cfg.accessKeyId && cfg.secretAccessKey ? { accessKeyId: cfg.accessKeyId, secretAccessKey: cfg.secretAccessKey } : undefined,
      tmpDir: path.join(opts.dataDir, 'tmp'),
    });
  }
  let secret = cfg.signingSecret;
  if (!secret) {
    if (!opts.storedSigningSecret) throw new Error('the local storage driver needs CUTROOM_SIGNING_SECRET or a database to keep a generated one');
    secret = await opts.storedSigningSecret();
  }
  return new LocalStorage({ dataDir: opts.dataDir, publicBaseUrl: opts.publicBaseUrl, signingSecret: secret });
}

const MiB = 1024 * 1024;
/** Uploads above this size are multipart (spec: "above 5 GB the upload is in parts"; also S3's single-PUT ceiling). */
export const MULTIPART_THRESHOLD_BYTES = 5 * 1024 * 1024 * 1024;

/** Part size for a multipart upload of `size` bytes: 128 MiB, larger when needed to stay within 10,000 parts. */
export function choosePartSize(size: number): number {
  return Math.max(128 * MiB, Math.ceil(size / 10_000 / MiB) * MiB);
}

/**
 * The part size of a multipart upload of `size` bytes: CUTROOM_MULTIPART_PART_SIZE_BYTES when set, raised
 * when needed to stay within 10,000 parts; else choosePartSize.
 */
export function partSizeFor(size: number, configured?: number): number {
  return configured ? Math.max(configured, Math.ceil(size / MAX_PARTS)) : choosePartSize(size);
}
