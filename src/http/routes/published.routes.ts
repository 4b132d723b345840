import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PUBLISHED_URL_PREFIX, SAFE_SEGMENT } from '../../shared/published-files.js';
import { parseRange } from './files.routes.js';
import { sendError } from '../errors.js';

export interface PublishedRoutesOptions {
  /** `<dataDir>/published` (publishedDir() of src/shared/published-files.ts). */
  dir: string;
}

const TYPES: Record<string, string> = { '.mp4': 'video/mp4', '.json': 'application/json; charset=utf-8' };

/**
 * What the `local` network published, public and read-only like a video platform's page:
 * `GET|HEAD /published/<account>/<name>.mp4` (Range supported) and `.json` (its metadata). No listing,
 * no API key, outside /api/v1. Register at the root: `app.register((s) => publishedRoutes(s, { dir }))`.
 */
export async function publishedRoutes(app: FastifyInstance, opts: PublishedRoutesOptions): Promise<void> {
  const root = path.resolve(opts.dir);

  const serve = async (req: FastifyRequest<{ Params: { account: string; file: string } }>, reply: FastifyReply) => {
    const { account, file } = req.params;
    const ext = path.extname(file);
    if (!SAFE_SEGMENT.test(account) || !SAFE_SEGMENT.test(file) || !TYPES[ext]) return sendError(reply, 'FILE_NOT_FOUND');
    const full = path.join(root, account, file);
    if (!full.startsWith(root + path.sep)) return sendError(reply, 'FILE_NOT_FOUND');
    let size: number;
    try {
      const st = await fs.promises.stat(full);
      if (!st.isFile()) return sendError(reply, 'FILE_NOT_FOUND');
      size = st.size;
    } catch {
      return sendError(reply, 'FILE_NOT_FOUND');
    }

    reply.header('accept-ranges', 'bytes');
    reply.header('content-type', TYPES[ext]);
    reply.header('cache-control', 'public, max-age=300');
    reply.header('x-content-type-options', 'nosniff');
    const range = parseRange(req.headers.range, size);
    if (range === 'unsatisfiable') {
      reply.header('content-range', `bytes */${size}`);
      return reply
        .code(416)
        .type('application/json; charset=utf-8')
        .send({ code: 'VALIDATION_ERROR', extra: { errors: [{ field: 'header.range', rule: 'satisfiable' }] } });
    }
    if (range) {
      reply.code(206).header('content-range', `bytes ${range.start}-${range.end}/${size}`);
      reply.header('content-length', range.end - range.start + 1);
    } else {
      reply.header('content-length', size);
    }
    if (req.method === 'HEAD') return reply.send();
    return reply.send(fs.createReadStream(full, range ? { start: range.start, end: range.end } : {}));
  };

  const url = `${PUBLISHED_URL_PREFIX}:account/:file`;
  app.get(url, { exposeHeadRoute: false, schema: { hide: true } }, serve);
  app.head(url, { schema: { hide: true } }, serve);
}
