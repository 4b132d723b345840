import path from 'node:path';

/**
 * Where the `local` network's publications live and are served: written under `<dataDir>/published/<account>/`
 * (src/adapters/publishing/local.publisher.ts), answered at `/published/<account>/<name>` (src/http/routes/published.routes.ts).
 */
export const PUBLISHED_URL_PREFIX = '/published/';

export function publishedDir(dataDir: string): string {
  return path.join(dataDir, 'published');
}

/** A path segment safe on every filesystem and in a URL: `[A-Za-z0-9._-]`, not starting with a dot. */
export const SAFE_SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/;
