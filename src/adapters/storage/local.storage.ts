import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DomainError } from '../../domain/errors.js';
import type { MultipartUpload, ObjectInfo, PresignGetOptions, PresignPutOptions, Storage } from '../../ports/storage.js';
import { nowSeconds, signUrl } from './signed-url.js';
import { MAX_PARTS, assertValidKey, contentTypeOfKey, isValidKey, partSizes } from './storage-keys.js';

/** URL path under which the service answers the local driver's signed URLs (src/http/routes/files.routes.ts). */
export const FILES_URL_PREFIX = '/files/';

const UPLOAD_ID = /^[a-f0-9]{32}$/;
const PART_URL_KEY = /^\.multipart\/([a-f0-9]{32})\/([1-9]\d{0,4})$/;
/** Bytes accepted (and thrown away) after a chunked body overruns its signed length, before the connection is cut. */
const OVERRUN_DRAIN_LIMIT = 16 * 1024 * 1024;

function isMissing(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

interface Manifest {
  key: string;
  size: number;
  partSize: number;
  contentType: string;
  /** Set once the parts were assembled into `key`: the manifest stays so that part URLs answer 409. */
  completed?: boolean;
}

/** Where the bytes of a signed PUT go: an object, or one part of a multipart upload. */
export type UploadTarget = { kind: 'object'; key: string; file: string } | { kind: 'part'; uploadId: string; part: number; file: string };

/** `completed`: the upload was completed (commitUpload, completeMultipart); its URLs no longer write. */
export type ReceiveResult = 'stored' | 'too_long' | 'too_short' | 'completed';

export interface LocalStorageOptions {
  dataDir: string;
  /** Public origin (and path prefix) of the service; signed URLs are `<publicBaseUrl>/files/<key>?...`. */
  publicBaseUrl: string;
  signingSecret: string | Buffer;
  /** Clock in unix seconds (tests). */
  now?: () => number;
}

/** Driver `local`: objects under `<dataDir>/files/<key>`, served by the service through HMAC-signed URLs. */
export class LocalStorage implements Storage {
  readonly kind = 'local' as const;
  readonly root: string;
  readonly signingSecret: string | Buffer;
  private readonly baseUrl: string;
  private readonly now: () => number;

  constructor(opts: LocalStorageOptions) {
    this.root = path.resolve(opts.dataDir, 'files');
    this.baseUrl = opts.publicBaseUrl.replace(/\/+$/, '');
    this.signingSecret = opts.signingSecret;
    this.now = opts.now ?? nowSeconds;
  }

  /** Absolute path of an object's file (whether or not it exists). */
  pathOf(key: string): string {
    assertValidKey(key);
    return path.join(this.root, ...key.split('/'));
  }

  private multipartDir(uploadId: string): string {
    return path.join(this.root, '.multipart', uploadId);
  }

  private async tempPath(): Promise<string> {
    const dir = path.join(this.root, '.tmp');
    await fsp.mkdir(dir, { recursive: true });
    return path.join(dir, `${Date.now()}-${randomBytes(8).toString('hex')}`);
  }

  /** Moves a complete temp file to its final name; the final name never shows partial bytes. */
  private async publish(tmp: string, file: string): Promise<void> {
    await fsp.mkdir(path.dirname(file), { recursive: true });
    await fsp.rename(tmp, file);
  }

  /**
   * Gives `file` the bytes of `from` only when `file` does not exist yet (a hard link: atomic, and never
   * replaces an object). False when `file` existed. `from` is left in place.
   */
  private async linkNew(from: string, file: string): Promise<boolean> {
    await fsp.mkdir(path.dirname(file), { recursive: true });
    try {
      await fsp.link(from, file);
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw err;
    }
  }

  /** Where the seal of an upload key is kept: a file naming the key its bytes were committed to. */
  private sealPath(uploadKey: string): string {
    return path.join(this.root, '.sealed', createHash('sha256').update(uploadKey).digest('hex'));
  }

  /** True when the upload to `uploadKey` was committed and the object it went to still exists. */
  private async isSealed(uploadKey: string): Promise<boolean> {
    let key: string;
    try {
      key = await fsp.readFile(this.sealPath(uploadKey), 'utf8');
    } catch (err) {
      if (isMissing(err)) return false;
      throw err;
    }
    return isValidKey(key) && (await this.head(key)) !== null;
  }

  /** Writes a small file atomically (temp file, then rename). */
  private async writeSmall(file: string, text: string): Promise<void> {
    const tmp = await this.tempPath();
    try {
      await fsp.writeFile(tmp, text, { flag: 'wx' });
      await this.publish(tmp, file);
    } catch (err) {
      await fsp.rm(tmp, { force: true });
      throw err;
    }
  }

  async presignPut(key: string, opts: PresignPutOptions): Promise<string> {
    assertValidKey(key);
    return signUrl(this.signingSecret, this.baseUrl, {
      method: 'PUT',
      path: `${FILES_URL_PREFIX}${key}`,
      expires: this.now() + opts.expiresInSeconds,
      contentType: opts.contentType,
      contentLength: opts.contentLength,
    });
  }

  async presignGet(key: string, opts: PresignGetOptions): Promise<string> {
    assertValidKey(key);
    return signUrl(this.signingSecret, this.baseUrl, {
      method: 'GET',
      path: `${FILES_URL_PREFIX}${key}`,
      expires: this.now() + opts.expiresInSeconds,
      contentType: opts.contentType,
      downloadFilename: opts.downloadFilename,
    });
  }

  async createMultipart(key: string, opts: { contentType: string; size: number; partSize: number; expiresInSeconds: number }): Promise<MultipartUpload> {
    assertValidKey(key);
    const sizes = partSizes(opts.size, opts.partSize);
    const uploadId = randomBytes(16).toString('hex');
    const dir = this.multipartDir(uploadId);
    await fsp.mkdir(dir, { recursive: true });
    const manifest: Manifest = { key, size: opts.size, partSize: opts.partSize, contentType: opts.contentType };
    await fsp.writeFile(path.join(dir, 'manifest.json'), JSON.stringify(manifest));
    const expires = this.now() + opts.expiresInSeconds;
    const parts = sizes.map((size, i) => ({
      part_number: i + 1,
      size,
      url: signUrl(this.signingSecret, this.baseUrl, {
        method: 'PUT',
        path: `${FILES_URL_PREFIX}.multipart/${uploadId}/${i + 1}`,
        expires,
        contentType: opts.contentType,
        contentLength: size,
      }),
    }));
    return { uploadId, partSize: opts.partSize, parts };
  }

  private async readManifest(uploadId: string): Promise<Manifest | null> {
    if (!UPLOAD_ID.test(uploadId)) return null;
    try {
      return JSON.parse(await fsp.readFile(path.join(this.multipartDir(uploadId), 'manifest.json'), 'utf8')) as Manifest;
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async completeMultipart(key: string, uploadId: string): Promise<void> {
    const target = this.pathOf(key);
    const manifest = await this.readManifest(uploadId);
    if (!manifest) {
      // A retry after a completion that went through: the parts are gone and the object is in place.
      if (UPLOAD_ID.test(uploadId) && (await this.head(key))) return;
      throw new DomainError('FILE_NOT_FOUND');
    }
    if (manifest.key !== key) throw new DomainError('FILE_NOT_FOUND');
    if (manifest.completed) {
      if (await this.head(key)) return;
      // Completed, then deleted (a refused file): the parts are gone, a new upload is needed.
      throw new DomainError('FILE_NOT_FOUND');
    }
    const dir = this.multipartDir(uploadId);
    const sizes = partSizes(manifest.size, manifest.partSize);
    for (let i = 0; i < sizes.length; i++) {
      const st = await fsp.stat(path.join(dir, String(i + 1))).catch((err) => (isMissing(err) ? null : Promise.reject(err)));
      if (!st || !st.isFile() || st.size !== sizes[i]) throw new DomainError('FILE_NOT_FOUND');
    }
    const tmp = await this.tempPath();
    const out = await fsp.open(tmp, 'wx');
    try {
      for (let i = 0; i < sizes.length; i++) {
        for await (const chunk of fs.createReadStream(path.join(dir, String(i + 1)), { highWaterMark: 1024 * 1024 })) {
          await out.write(chunk as Buffer);
        }
      }
      await out.sync();
      await out.close();
      // Written once: a concurrent completion that got there first keeps its object (same parts).
      await this.linkNew(tmp, target);
    } catch (err) {
      await out.close().catch(() => {});
      throw err;
    } finally {
      await fsp.rm(tmp, { force: true });
    }
    // The manifest stays, marked completed, so that the part URLs answer 409 from now on; the parts go.
    await this.writeSmall(path.join(dir, 'manifest.json'), JSON.stringify({ ...manifest, completed: true } satisfies Manifest));
    for (const name of await fsp.readdir(dir)) {
      if (name !== 'manifest.json') await fsp.rm(path.join(dir, name), { recursive: true, force: true });
    }
  }

  async commitUpload(uploadKey: string, key: string): Promise<void> {
    const from = this.pathOf(uploadKey);
    const to = this.pathOf(key);
    if (from === to) throw new Error('commitUpload needs a key other than the upload key');
    // Sealed first: a PUT that lands from here on is refused, or removes its own file once it sees the seal.
    await this.writeSmall(this.sealPath(uploadKey), key);
    let linked: boolean;
    try {
      linked = await this.linkNew(from, to);
    } catch (err) {
      if (isMissing(err)) throw new DomainError('FILE_NOT_FOUND');
      throw err;
    }
    if (!linked) throw new Error(`commitUpload: ${key} already exists`);
    await fsp.rm(from, { force: true });
  }

  async head(key: string): Promise<ObjectInfo | null> {
    try {
      const st = await fsp.stat(this.pathOf(key));
      return st.isFile() ? { size: st.size, contentType: contentTypeOfKey(key) } : null;
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async putFile(key: string, localPath: string, _contentType: string): Promise<void> {
    const target = this.pathOf(key);
    const tmp = await this.tempPath();
    try {
      await fsp.copyFile(localPath, tmp);
      await this.publish(tmp, target);
    } catch (err) {
      await fsp.rm(tmp, { force: true });
      throw err;
    }
  }

  /** `range` is inclusive, like HTTP: `{ start: 0, end: 99 }` is the first 100 bytes; `end` is clamped to the size. */
  async read(key: string, range?: { start: number; end: number }): Promise<Readable> {
    const file = this.pathOf(key);
    const info = await this.head(key);
    if (!info) throw new DomainError('FILE_NOT_FOUND');
    if (!range) return fs.createReadStream(file);
    if (!Number.isSafeInteger(range.start) || !Number.isSafeInteger(range.end) || range.start < 0 || range.end < range.start || range.start >= info.size) {
      throw new RangeError(`range ${range.start}-${range.end} is not satisfiable for ${info.size} bytes`);
    }
    return fs.createReadStream(file, { start: range.start, end: Math.min(range.end, info.size - 1) });
  }

  async withLocalFile<T>(key: string, fn: (path: string) => Promise<T>): Promise<T> {
    const file = this.pathOf(key);
    if (!(await this.head(key))) throw new DomainError('FILE_NOT_FOUND');
    return fn(file);
  }

  async delete(key: string): Promise<void> {
    await fsp.rm(this.pathOf(key), { force: true });
  }

  /** Writes and removes a probe file: a missing, read-only or full volume fails. */
  async ping(): Promise<void> {
    const probe = await this.tempPath();
    try {
      await fsp.writeFile(probe, 'ping');
    } finally {
      await fsp.rm(probe, { force: true });
    }
  }

  /** Maps the key part of a signed URL path (after `/files/`) to the file it writes; null for anything else. */
  uploadTarget(urlKey: string): UploadTarget | null {
    const part = PART_URL_KEY.exec(urlKey);
    if (part) {
      const n = Number(part[2]);
      if (n > MAX_PARTS) return null;
      return { kind: 'part', uploadId: part[1], part: n, file: path.join(this.multipartDir(part[1]), String(n)) };
    }
    return isValidKey(urlKey) ? { kind: 'object', key: urlKey, file: this.pathOf(urlKey) } : null;
  }

  /**
   * Streams one signed PUT body to a temp file and publishes it under its final name only when exactly
   * `expectedLength` bytes arrived. Memory stays flat whatever the size. A URL whose upload was completed
   * answers `completed` without reading the body; a part of an unknown multipart upload is FILE_NOT_FOUND.
   */
  async receive(target: UploadTarget, body: Readable, expectedLength: number): Promise<ReceiveResult> {
    if (await this.isClosed(target)) return 'completed';
    const tmp = await this.tempPath();
    let received = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _enc, cb) {
        received += chunk.length;
        if (received <= expectedLength) return cb(null, chunk);
        // Longer than signed: keep nothing more, drain a little so the client can read our answer.
        if (received > expectedLength + OVERRUN_DRAIN_LIMIT) return cb(new Error('request body overruns its signed length'));
        cb();
      },
    });
    try {
      await pipeline(body, counter, fs.createWriteStream(tmp, { flags: 'wx', flush: true }));
    } catch (err) {
      await fsp.rm(tmp, { force: true });
      if (received > expectedLength) return 'too_long';
      throw err;
    }
    if (received !== expectedLength) {
      await fsp.rm(tmp, { force: true });
      return received > expectedLength ? 'too_long' : 'too_short';
    }
    try {
      await this.publish(tmp, target.file);
    } catch (err) {
      await fsp.rm(tmp, { force: true });
      throw err;
    }
    // Completed while the body was arriving: these bytes must not stay where nothing will read them.
    if (await this.isClosed(target).catch(() => true)) {
      await fsp.rm(target.file, { force: true });
      return 'completed';
    }
    return 'stored';
  }

  /**
   * True when the URL of `target` no longer writes: its upload was committed (object) or its multipart
   * upload completed (part). A part of an unknown multipart upload is FILE_NOT_FOUND.
   */
  private async isClosed(target: UploadTarget): Promise<boolean> {
    if (target.kind === 'object') return this.isSealed(target.key);
    const manifest = await this.readManifest(target.uploadId);
    if (!manifest) throw new DomainError('FILE_NOT_FOUND');
    return manifest.completed === true;
  }
}
