import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import type { StudioConfig } from '../../config/studio.env.js';
import { STUDIO_ASSETS_PREFIX, STUDIO_PAGES } from '../../shared/studio-pages.js';

/**
 * The Studio's Content-Security-Policy: everything from the service itself, no inline script or style
 * element, no plugin, no framing; media, images and uploads may also use the bucket when files are on
 * S3 (`fileOrigins`: their signed URLs point there). `blob:` in media-src only: a transcription plays
 * the file the person chose on their own machine (an object URL of it), which the API never serves back.
 */
export function studioCsp(fileOrigins: readonly string[]): string {
  const files = ["'self'", ...fileOrigins].join(' ');
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src ${files}`,
    "font-src 'self'",
    `media-src ${files} blob:`,
    `connect-src ${files}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * The Studio (docs/studio.md): its hashed files under /assets/ (cached for a year, immutable) and
 * index.html (revalidated on every load) at each page address of STUDIO_PAGES, every answer with the
 * Studio's CSP and `X-Frame-Options: DENY`. Nothing is registered when the Studio is off or not built
 * (`npm run build` builds it). Register at the root, in its own scope: `app.register((s) => studioRoutes(s, config.studio))`.
 */
export async function studioRoutes(app: FastifyInstance, opts: StudioConfig): Promise<void> {
  if (!opts.dir) return;
  const root = opts.dir;
  if (!fs.existsSync(path.join(root, 'index.html'))) {
    app.log.warn({ dir: root }, 'the Studio is not built (npm run build): / is not served');
    return;
  }
  const csp = studioCsp(opts.fileOrigins);
  app.addHook('onSend', async (_req, reply) => {
    reply.header('content-security-policy', csp);
    reply.header('x-frame-options', 'DENY');
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'no-referrer');
    reply.header('cross-origin-opener-policy', 'same-origin');
  });

  await app.register(fastifyStatic, {
    root: path.join(root, STUDIO_ASSETS_PREFIX),
    prefix: STUDIO_ASSETS_PREFIX,
    index: false,
    list: false,
    dotfiles: 'ignore',
    immutable: true,
    maxAge: '365d',
    schemaHide: true,
  });

  for (const page of Object.values(STUDIO_PAGES)) {
    // A page is a shell: the app reads the address. Never cached stale, so a new build's assets load at once.
    app.get(page, { schema: { hide: true } }, (_req, reply) => reply.header('cache-control', 'no-cache').sendFile('index.html', root, { cacheControl: false }));
  }
}
