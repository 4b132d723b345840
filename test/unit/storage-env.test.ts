import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/env.js';
import { loadStorageConfig } from '../../src/config/storage.env.js';

describe('storage environment', () => {
  it('defaults to the local driver', () => {
    expect(loadStorageConfig({})).toEqual({ driver: 'local', signingSecret: undefined });
    expect(loadConfig({}).storage.driver).toBe('local');
  });

  it('reads every S3 variable', () => {
    expect(
      loadStorageConfig({
        CUTROOM_STORAGE: 's3',
        CUTROOM_S3_BUCKET: 'clips',
        CUTROOM_S3_REGION: 'eu-west-3',
        CUTROOM_S3_ENDPOINT: 'http://127.0.0.1:9000',
        CUTROOM_S3_FORCE_PATH_STYLE: 'true',
        CUTROOM_S3_ACCESS_KEY_ID: 'id',
        CUTROOM_S3_SECRET_ACCESS_KEY: 'secret',
        CUTROOM_SIGNING_SECRET: 's'.repeat(32),
      }),
    ).toEqual({
      driver: 's3',
      bucket: 'clips',
      region: 'eu-west-3',
      endpoint: 'http://127.0.0.1:9000',
      forcePathStyle: true,
      accessKeyId: 'id',
      secretAccessKey: 'secret',
      signingSecret: 's'.repeat(32),
    });
  });

  it('falls back to us-east-1, virtual-host style and the default credential chain', () => {
    expect(loadStorageConfig({ CUTROOM_STORAGE: 's3', CUTROOM_S3_BUCKET: 'clips' })).toMatchObject({
      region: 'us-east-1',
      endpoint: undefined,
      forcePathStyle: false,
      accessKeyId: undefined,
      secretAccessKey: undefined,
    });
  });

  it('refuses bad values with ConfigError', () => {
    for (const env of [
      { CUTROOM_STORAGE: 'gcs' },
      { CUTROOM_STORAGE: 's3' },
      { CUTROOM_STORAGE: 's3', CUTROOM_S3_BUCKET: 'Bad_Bucket' },
      { CUTROOM_STORAGE: 's3', CUTROOM_S3_BUCKET: 'clips', CUTROOM_S3_ENDPOINT: 'not a url' },
      { CUTROOM_STORAGE: 's3', CUTROOM_S3_BUCKET: 'clips', CUTROOM_S3_ENDPOINT: 'ftp://host' },
      { CUTROOM_STORAGE: 's3', CUTROOM_S3_BUCKET: 'clips', CUTROOM_S3_FORCE_PATH_STYLE: 'yes' },
      { CUTROOM_STORAGE: 's3', CUTROOM_S3_BUCKET: 'clips', CUTROOM_S3_ACCESS_KEY_ID: 'only-id' },
      { CUTROOM_STORAGE: 's3', CUTROOM_S3_BUCKET: 'clips', CUTROOM_S3_REGION: 'EU WEST' },
      { CUTROOM_SIGNING_SECRET: 'short' },
    ]) {
      expect(() => loadStorageConfig(env), JSON.stringify(env)).toThrow(ConfigError);
      expect(() => loadConfig(env), JSON.stringify(env)).toThrow(ConfigError);
    }
  });
});
