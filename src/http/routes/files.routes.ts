import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import type { SignedFiles, SignedUrlFields } from '../../ports/signed-files.js';
import { contentDisposition } from '../../shared/content-disposition.js';
import { sendError } from '../errors.js';

export interface FileRoutesDeps {
  /** The storage driver's signed URLs the service answers; null when it has none (S3). */
  signedFiles: SignedFiles | null;
}

/** Parses one `bytes=` range against `size` (RFC 9110 §14.1.2). `null`: serve the whole file; `'unsatisfiable'`: 416. */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | null | 'unsatisfiable' {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  // Several ranges or another unit: a server may ignore Range and answer the whole representation.
  if (!m || (m[1] === '' && m[2] === '')) return null;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (m[2] !== '' && Number(m[2]) < start) return null;
  if (start >= size) return 'unsatisfiable';
  return { start, end };
}

function rejectSignature(reply: FastifyReply, reason: 'invalid' | 'expired') {
  return sendError(reply, reason === 'expired' ? 'SIGNATURE_EXPIRED' : 'SIGNATURE_INVALID');
}

/** The request target's path without the query, as signed (not decoded). */
function rawPath(req: FastifyRequest): string {
  const q = req.url.indexOf('?');
  return q < 0 ? req.url : req.url.slice(0, q);
}

/**
 * The local driver's signed URLs, at the root (outside /api/v1) and without an API key (spec: Authentication
 * rule 5): `PUT /files/<key>` stores the raw body (409 UPLOAD_ALREADY_COMPLETED once the upload was completed),
 * `GET|HEAD /files/<key>` answers the bytes with Range support.
 * Nothing is registered when the storage is S3 (its URLs point at the bucket).
 */
export async function fileRoutes(app: FastifyInstance, deps: FileRoutesDeps): Promise<void> {
  const files = deps.signedFiles;
  if (!files) return;
  const prefix = files.urlPrefix;

  await app.register(async (scope) => {
    // Uploads stay streams whatever their type (even application/json): no parser may buffer them.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_req, payload, done) => done(null, payload));

    scope.put(
      `${prefix}*`,
      // The signed length is the limit, enforced while streaming; Fastify's own limit does not apply to stream parsers.
      { bodyLimit: Number.MAX_SAFE_INTEGER, schema: { hide: true } },
      async (req, reply) => {
        // Any early answer leaves body bytes unread: close the connection after it.
        reply.header('connection', 'close');
        const v = files.verify({ method: req.method, url: req.url });
        if (!v.ok) return rejectSignature(reply, v.reason);
        const upload = files.upload(v.fields.path.slice(prefix.length));
        if (!upload) return rejectSignature(reply, 'invalid');
        const signed = v.fields as Required<Pick<SignedUrlFields, 'contentType' | 'contentLength'>>;

        const declaredType = req.headers['content-type'];
        if (!declaredType || declaredType.trim().toLowerCase() !== signed.contentType.trim().toLowerCase()) {
          return sendError(reply, 'VALIDATION_ERROR', { errors: [{ field: 'header.content-type', rule: 'signed' }] });
        }
        const lengthHeader = req.headers['content-length'];
        if (lengthHeader !== undefined && Number(lengthHeader) !== signed.contentLength) {
          return sendError(reply, 'VALIDATION_ERROR', { errors: [{ field: 'header.content-length', rule: 'signed' }] });
        }

        const body = (req.body as Readable | undefined) ?? req.raw;
        const result = await upload.receive(body, signed.contentLength);
        // The upload was completed: its URL writes once (docs/storage.md, "Uploads write once").
        if (result === 'completed') return sendError(reply, 'UPLOAD_ALREADY_COMPLETED');
        if (result !== 'stored') {
          return sendError(reply, 'VALIDATION_ERROR', { errors: [{ field: 'header.content-length', rule: 'signed' }] });
        }
        reply.removeHeader('connection');
        return reply.code(200).send({});
      },
    );

    const serve = async (req: FastifyRequest, reply: FastifyReply) => {
      const v = files.verify({ method: req.method, url: req.url });
      if (!v.ok) return rejectSignature(reply, v.reason);
      const key = rawPath(req).slice(prefix.length);
      if (!files.isValidKey(key)) return sendError(reply, 'FILE_NOT_FOUND');
      const info = await files.head(key);
      if (!info) return sendError(reply, 'FILE_NOT_FOUND');

      reply.header('accept-ranges', 'bytes');
      reply.header('content-type', v.fields.contentType ?? info.contentType ?? 'application/octet-stream');
      if (v.fields.downloadFilename) reply.header('content-disposition', contentDisposition(v.fields.downloadFilename));
      reply.header('cache-control', 'private, no-transform');

      const range = parseRange(req.headers.range, info.size);
      if (range === 'unsatisfiable') {
        reply.header('content-range', `bytes */${info.size}`);
        return reply
          .code(416)
          .type('application/json; charset=utf-8')
          .send({ code: 'VALIDATION_ERROR', extra: { errors: [{ field: 'header.range', rule: 'satisfiable' }] } });
      }
      if (range) {
        reply.code(206).header('content-range', `bytes ${range.start}-${range.end}/${info.size}`);
        reply.header('content-length', range.end - range.start + 1);
      } else {
        reply.header('content-length', info.size);
      }
      if (req.method === 'HEAD') return reply.send();
      return reply.send(await files.read(key, range ?? undefined));
    };

    scope.get(`${prefix}*`, { exposeHeadRoute: false, schema: { hide: true } }, serve);
    scope.head(`${prefix}*`, { schema: { hide: true } }, serve);
  });
}
