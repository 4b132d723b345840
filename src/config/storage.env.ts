import { ConfigError, boolean, oneOf, secret, secretPair, text, url, type Env } from './parse.js';

/** Where files live: the data folder (`local`, default) or an S3-compatible bucket (`s3`). See docs/storage.md. */
export type StorageConfig = LocalStorageConfig | S3StorageConfig;

export interface LocalStorageConfig {
  driver: 'local';
  /** HMAC secret of the signed URLs; unset: generated once and kept in the `settings` table. */
  signingSecret?: string;
}

export interface S3StorageConfig {
  driver: 's3';
  bucket: string;
  region: string;
  endpoint?: string;
  forcePathStyle: boolean;
  /** Both set, or both unset (the SDK's default credential chain). */
  accessKeyId?: string;
  secretAccessKey?: string;
  signingSecret?: string;
}

const MIN_SECRET_LENGTH = 32;
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/** Reads and validates the storage variables (CUTROOM_STORAGE, CUTROOM_S3_*, CUTROOM_SIGNING_SECRET). */
export function loadStorageConfig(env: Env): StorageConfig {
  const driver = oneOf(env, 'CUTROOM_STORAGE', ['local', 's3'], 'local');
  const signingSecret = secret(env, 'CUTROOM_SIGNING_SECRET', { minLength: MIN_SECRET_LENGTH, trim: false });
  if (driver === 'local') return { driver, signingSecret };

  const bucket = text(env, 'CUTROOM_S3_BUCKET');
  if (!bucket) throw new ConfigError('CUTROOM_S3_BUCKET is required when CUTROOM_STORAGE=s3');
  if (!BUCKET.test(bucket)) throw new ConfigError(`CUTROOM_S3_BUCKET is not a valid bucket name (got "${bucket}")`);
  const region = text(env, 'CUTROOM_S3_REGION') ?? 'us-east-1';
  if (!/^[a-z0-9-]+$/.test(region)) throw new ConfigError(`CUTROOM_S3_REGION is not a valid region (got "${region}")`);
  const endpoint = url(env, 'CUTROOM_S3_ENDPOINT');
  const [accessKeyId, secretAccessKey] = secretPair(
    env,
    'CUTROOM_S3_ACCESS_KEY_ID',
    'CUTROOM_S3_SECRET_ACCESS_KEY',
    ' (or both left unset for the default credential chain)',
  );
  return {
    driver,
    bucket,
    region,
    endpoint,
    forcePathStyle: boolean(env, 'CUTROOM_S3_FORCE_PATH_STYLE', false),
    accessKeyId,
    secretAccessKey,
    signingSecret,
  };
}
