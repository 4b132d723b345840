import { ConfigError } from './env.js';

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

function bool(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  throw new ConfigError(`${name} must be "true" or "false" (got "${raw}")`);
}

/** Reads and validates the storage variables (CUTROOM_STORAGE, CUTROOM_S3_*, CUTROOM_SIGNING_SECRET). */
export function loadStorageConfig(env: NodeJS.ProcessEnv = process.env): StorageConfig {
  const driver = env.CUTROOM_STORAGE || 'local';
  if (driver !== 'local' && driver !== 's3') throw new ConfigError(`CUTROOM_STORAGE must be "local" or "s3" (got "${driver}")`);

  const signingSecret = env.CUTROOM_SIGNING_SECRET || undefined;
  if (signingSecret !== undefined && signingSecret.length < MIN_SECRET_LENGTH) {
    throw new ConfigError(`CUTROOM_SIGNING_SECRET must be at least ${MIN_SECRET_LENGTH} characters (for example: openssl rand -base64 48)`);
  }
  if (driver === 'local') return { driver, signingSecret };

  const bucket = env.CUTROOM_S3_BUCKET || '';
  if (!bucket) throw new ConfigError('CUTROOM_S3_BUCKET is required when CUTROOM_STORAGE=s3');
  if (!BUCKET.test(bucket)) throw new ConfigError(`CUTROOM_S3_BUCKET is not a valid bucket name (got "${bucket}")`);
  const region = env.CUTROOM_S3_REGION || 'us-east-1';
  if (!/^[a-z0-9-]+$/.test(region)) throw new ConfigError(`CUTROOM_S3_REGION is not a valid region (got "${region}")`);
  const endpoint = env.CUTROOM_S3_ENDPOINT || undefined;
  if (endpoint !== undefined) {
    let url: URL;
    try {
      url = new URL(endpoint);
    } catch {
      throw new ConfigError('CUTROOM_S3_ENDPOINT must be an absolute http(s) URL');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError('CUTROOM_S3_ENDPOINT must be an absolute http(s) URL');
  }
  const accessKeyId = env.CUTROOM_S3_ACCESS_KEY_ID || undefined;
  const secretAccessKey = env.CUTROOM_S3_SECRET_ACCESS_KEY || undefined;
  if ((accessKeyId === undefined) !== (secretAccessKey === undefined)) {
    throw new ConfigError('CUTROOM_S3_ACCESS_KEY_ID and CUTROOM_S3_SECRET_ACCESS_KEY must be set together (or both left unset for the default credential chain)');
  }
  return {
    driver,
    bucket,
    region,
    endpoint,
    forcePathStyle: bool(env, 'CUTROOM_S3_FORCE_PATH_STYLE', false),
    accessKeyId,
    secretAccessKey,
    signingSecret,
  };
}
