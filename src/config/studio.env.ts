import path from 'node:path';
import { text, type Env } from './parse.js';

/** The Studio, the web app the service serves at `/` (docs/studio.md). */
export interface StudioConfig {
  /** The built app's folder (index.html, assets/); null: the Studio is off (CUTROOM_STUDIO_DIR=off). */
  dir: string | null;
  /**
   * Origins the Studio's pages load files from and upload to, beside their own: where signed URLs
   * point. With local files, PUBLIC_BASE_URL's origin (the same as the page's when the Studio is
   * opened at that address, as the first start prints it); with S3, the bucket's addresses.
   */
  fileOrigins: string[];
}

/** The package's own build output: `<repo>/dist/web` from src/config (tsx) and from dist/config (built) alike. */
const BUILT_STUDIO = path.resolve(import.meta.dirname, '../../dist/web');

/**
 * What the Studio needs of the storage settings (StorageConfig, src/config/storage.env.ts, given by
 * env.ts: a loader imports only parse.ts from src/config).
 */
export type StudioStorage = { driver: 'local' } | { driver: 's3'; bucket: string; region: string; endpoint?: string; forcePathStyle: boolean };

/** Where an S3 bucket's presigned URLs can point: virtual-hosted and path-style addresses of the endpoint (or AWS). */
export function bucketOrigins(storage: StudioStorage): string[] {
  if (storage.driver !== 's3') return [];
  if (storage.endpoint) {
    const endpoint = new URL(storage.endpoint);
    const virtual = `${endpoint.protocol}//${storage.bucket}.${endpoint.host}`;
    return storage.forcePathStyle ? [endpoint.origin] : [virtual, endpoint.origin];
  }
  return [
    `https://${storage.bucket}.s3.${storage.region}.amazonaws.com`,
    `https://s3.${storage.region}.amazonaws.com`,
    `https://${storage.bucket}.s3.amazonaws.com`,
  ];
}

/** CUTROOM_STUDIO_DIR: the built Studio's folder (default: this package's dist/web), `off` to serve none. */
export function loadStudioConfig(env: Env, storage: StudioStorage, publicBaseUrl: string): StudioConfig {
  const dir = text(env, 'CUTROOM_STUDIO_DIR');
  const fileOrigins = storage.driver === 's3' ? bucketOrigins(storage) : [new URL(publicBaseUrl).origin];
  return { dir: dir === 'off' ? null : path.resolve(dir ?? BUILT_STUDIO), fileOrigins };
}
