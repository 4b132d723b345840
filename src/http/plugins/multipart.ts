import fastifyMultipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { DomainError, validationError } from '../../domain/errors.js';
import type { Api } from '../types.js';
import { textProblem } from './text-input.js';

/**
 * multipart/form-data uploads (POST /generations/images, POST /personas/faces). The parser is registered
 * only in the scope of the routes that take files (`multipartScope`), so every other route still refuses
 * a multipart body as before. A route reads its parts with `readMultipart`: one file under the field it
 * names, a few short text fields; the file is read into memory under the service's size limit (413
 * FILE_TOO_LARGE with `extra.max_size`), text fields are checked like every text of a request.
 */

/** Registers the multipart parser in a scope of its own and the routes `routes` adds to it. */
export async function multipartScope(app: Api, routes: (scope: Api) => void): Promise<void> {
  await app.register(async (scope) => {
    await scope.register(fastifyMultipart, {
      throwFileSizeLimit: true,
      // The service's own limit is passed per request; these bound what a request may carry at all.
      limits: { files: 1, fields: 20, parts: 21, fieldSize: 16 * 1024, headerPairs: 100, fieldNameSize: 100 },
    });
    routes(scope as unknown as Api);
  });
}

export interface MultipartFile {
  bytes: Buffer;
  fileName: string;
  /** As the client declared it (never trusted: the bytes are sniffed). */
  mimetype: string;
}

export interface MultipartBody {
  file?: MultipartFile;
  fields: Record<string, string>;
}

const TOO_MANY = new Set(['FST_FILES_LIMIT', 'FST_PARTS_LIMIT', 'FST_FIELDS_LIMIT']);

/**
 * The request's parts: the file of `fileField` (at most `maxBytes`; another file field is refused) and the
 * text fields. 400 VALIDATION_ERROR for a body that is not multipart, a bad part or a bad text field.
 */
export async function readMultipart(req: FastifyRequest, opts: { fileField: string; maxBytes: number }): Promise<MultipartBody> {
  const fields: Record<string, string> = {};
  let file: MultipartFile | undefined;
  try {
    if (!req.isMultipart()) throw validationError([{ field: 'header.content-type', rule: 'media_type' }]);
    for await (const part of req.parts({ limits: { fileSize: opts.maxBytes } })) {
      if (part.type === 'file') {
        if (part.fieldname !== opts.fileField) {
          part.file.resume();
          throw validationError([{ field: part.fieldname, rule: 'unexpected_file' }]);
        }
        file = { bytes: await part.toBuffer(), fileName: part.filename, mimetype: part.mimetype };
      } else {
        const value = typeof part.value === 'string' ? part.value : String(part.value);
        const rule = textProblem(value) ?? textProblem(part.fieldname);
        if (rule) throw validationError([{ field: part.fieldname, rule }]);
        fields[part.fieldname] = value;
      }
    }
  } catch (err) {
    if (err instanceof DomainError) throw err;
    const code = (err as { code?: string }).code ?? '';
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new DomainError('FILE_TOO_LARGE', { max_size: opts.maxBytes });
    if (TOO_MANY.has(code)) throw validationError([{ field: 'body', rule: 'too_many_parts' }]);
    if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') throw validationError([{ field: 'header.content-type', rule: 'media_type' }]);
    if (code.startsWith('FST_') || /multipart|boundary|Unexpected end/i.test((err as Error).message ?? ''))
      throw validationError([{ field: 'body', rule: 'multipart' }]);
    throw err;
  }
  return { file, fields };
}
