/**
 * The operations whose body is a form with a file (multipart/form-data), written by hand: the generator
 * (scripts/sdk-resources.ts) makes JSON calls only. They send a Blob (a browser's File; in Node,
 * `await fs.openAsBlob(path, { type })`).
 */
import type { Client } from 'openapi-fetch';
import type { operations, paths } from './schema.js';
import { callInit, ok, type Answer, type PostOptions } from './call.js';

export interface FileUploadOptions extends PostOptions {
  /** The file name sent with the bytes (default: a File's name, else `upload` with the type's extension). */
  fileName?: string;
}

export interface GenerationUploads {
  /**
   * POST /api/v1/generations/images (uploadGenerationImage): stores a reference image (PNG, JPEG or
   * WebP) and answers it; its `id` goes in a generation's `image_ids`.
   */
  uploadImage(image: Blob, opts?: FileUploadOptions): Promise<Answer<operations['uploadGenerationImage']>>;
}

export interface PersonaUploads {
  /**
   * POST /api/v1/personas/faces (uploadPersonaFace): a photo of the caller's own face (PNG, JPEG or WebP,
   * exactly one face). `consent.own_face_adult` must be `true`: the face is the caller's own and the
   * caller is 18 or older.
   */
  uploadFace(photo: Blob, consent: { own_face_adult: true }, opts?: FileUploadOptions): Promise<Answer<operations['uploadPersonaFace']>>;
}

const EXTENSIONS: Record<string, string> = { 'image/png': '.png', 'image/jpeg': '.jpg', 'image/webp': '.webp' };

function fileNameOf(file: Blob, opts: FileUploadOptions | undefined): string {
  if (opts?.fileName) return opts.fileName;
  const name = (file as Blob & { name?: unknown }).name;
  return typeof name === 'string' && name ? name : `upload${EXTENSIONS[file.type] ?? ''}`;
}

// openapi-fetch serializes bodies as JSON unless told otherwise; a FormData goes as it is (fetch sets its boundary).
const asForm = (body: unknown) => body as FormData;

export function multipartUploads(api: Client<paths>): { generations: GenerationUploads; personas: PersonaUploads } {
  return {
    generations: {
      uploadImage: (image, opts) => {
        const form = new FormData();
        form.append('image', image, fileNameOf(image, opts));
        return ok(api.POST('/api/v1/generations/images', { body: form as never, bodySerializer: asForm, ...callInit(opts) }));
      },
    },
    personas: {
      uploadFace: (photo, consent, opts) => {
        const form = new FormData();
        form.append('own_face_adult', String(consent.own_face_adult));
        form.append('photo', photo, fileNameOf(photo, opts));
        return ok(api.POST('/api/v1/personas/faces', { body: form as never, bodySerializer: asForm, ...callInit(opts) }));
      },
    },
  };
}
