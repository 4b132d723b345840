import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendError } from '../errors.js';

/** Where the SDK's tarball is served: `npm install <service>/sdk/cutroom-sdk.tgz`. */
export const SDK_TARBALL_URL = '/sdk/cutroom-sdk.tgz';

/** The tarball `npm run build` packs (scripts/build-sdk.ts): `<repo>/dist/sdk/` from src/http/routes (tsx) and dist/http/routes (built) alike. */
export const BUILT_SDK_TARBALL = path.resolve(import.meta.dirname, '../../../dist/sdk/cutroom-sdk.tgz');

export interface SdkRoutesOptions {
  /** The packed SDK (default BUILT_SDK_TARBALL). */
  file: string;
}

/**
 * The SDK as an npm tarball, public like the OpenAPI document (docs/api-decisions.md): `GET|HEAD
 * /sdk/cutroom-sdk.tgz`, so `npm install http(s)://<service>/sdk/cutroom-sdk.tgz` works from any machine
 * that reaches the service, with the SDK made from this very service's document. 404 `FILE_NOT_FOUND`
 * when it was not built. Register at the root: `app.register((s) => sdkRoutes(s, { file }))`.
 */
export async function sdkRoutes(app: FastifyInstance, opts: SdkRoutesOptions): Promise<void> {
  const serve = async (req: FastifyRequest, reply: FastifyReply) => {
    let size: number;
    try {
      const st = await fs.promises.stat(opts.file);
      if (!st.isFile()) return sendError(reply, 'FILE_NOT_FOUND');
      size = st.size;
    } catch {
      return sendError(reply, 'FILE_NOT_FOUND');
    }
    reply.header('content-type', 'application/gzip');
    reply.header('content-length', size);
    reply.header('content-disposition', 'attachment; filename="cutroom-sdk.tgz"');
    // A new build replaces it under the same name: revalidated on every install.
    reply.header('cache-control', 'no-cache');
    reply.header('x-content-type-options', 'nosniff');
    if (req.method === 'HEAD') return reply.send();
    return reply.send(fs.createReadStream(opts.file));
  };
  app.get(SDK_TARBALL_URL, { exposeHeadRoute: false, schema: { hide: true } }, serve);
  app.head(SDK_TARBALL_URL, { schema: { hide: true } }, serve);
}
