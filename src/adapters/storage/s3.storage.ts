import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  HeadBucketCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListPartsCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
  type CompletedPart,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { DomainError } from '../../domain/errors.js';
import type { MultipartUpload, ObjectInfo, PresignGetOptions, PresignPutOptions, Storage, UploadedPart } from '../../ports/storage.js';
import { assertValidKey, partSizes } from './storage-keys.js';
import { contentDisposition } from '../../shared/content-disposition.js';

const MiB = 1024 * 1024;
/** S3 refuses parts under 5 MiB (except the last) at completion. */
export const S3_MIN_PART_SIZE = 5 * MiB;
export const S3_MAX_PART_SIZE = 5 * 1024 * MiB;
/** Manifests of open multipart uploads; no object key can start with a dot segment. */
const MANIFEST_PREFIX = '.cutroom/multipart/';

export interface S3StorageOptions {
  bucket: string;
  region: string;
  endpoint?: string;
  forcePathStyle?: boolean;
  /** Unset: the SDK's default credential chain (env, profile, instance role...). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** Where withLocalFile downloads objects (default: the OS temp folder). */
  tmpDir?: string;
  /** putFile sends one PutObject up to this size, a multipart upload above it (default 64 MiB). */
  putFileMultipartThreshold?: number;
  /** Part size of putFile's multipart uploads (default 64 MiB, at least 5 MiB). */
  putFilePartSize?: number;
}

interface Manifest {
  key: string;
  size: number;
  partSize: number;
  contentType: string;
}

function errorName(err: unknown): string | undefined {
  return (err as { name?: string; Code?: string }).name ?? (err as { Code?: string }).Code;
}

function httpStatus(err: unknown): number | undefined {
  return (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
}

function isNotFound(err: unknown): boolean {
  const name = errorName(err);
  return name === 'NotFound' || name === 'NoSuchKey' || httpStatus(err) === 404;
}

/** Driver `s3`: any S3-compatible store; clients upload and download directly with presigned URLs. */
export class S3Storage implements Storage {
  readonly kind = 's3' as const;
  readonly client: S3Client;
  private readonly bucket: string;
  private readonly tmpDir: string;
  private readonly threshold: number;
  private readonly putPartSize: number;

  constructor(opts: S3StorageOptions) {
    this.bucket = opts.bucket;
    this.tmpDir = opts.tmpDir ?? os.tmpdir();
    this.threshold = opts.putFileMultipartThreshold ?? 64 * MiB;
    this.putPartSize = Math.max(opts.putFilePartSize ?? 64 * MiB, S3_MIN_PART_SIZE);
    this.client = new S3Client({
      region: opts.region,
      endpoint: opts.endpoint,
      forcePathStyle: opts.forcePathStyle,
      credentials: opts.credentials,
      // The SDK's default (WHEN_SUPPORTED) adds CRC32 checksums: presigned PUTs would carry the checksum of an
      // empty body and streamed bodies would switch to aws-chunked encoding, which many S3-compatible stores refuse.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  /** Releases the client's sockets. */
  destroy(): void {
    this.client.destroy();
  }

  async presignPut(key: string, opts: PresignPutOptions): Promise<string> {
    assertValidKey(key);
    const cmd = new PutObjectCommand({ Bucket: this.bucket, Key: key, ContentType: opts.contentType, ContentLength: opts.contentLength });
    // Content-Type and Content-Length are signed: the store refuses a PUT that changes either.
    return getSignedUrl(this.client, cmd, { expiresIn: opts.expiresInSeconds, signableHeaders: new Set(['content-type', 'content-length']) });
  }

  async presignGet(key: string, opts: PresignGetOptions): Promise<string> {
    assertValidKey(key);
    const cmd = new GetObjectCommand({
      Bucket: this.bucket,
      Key: key,
      ResponseContentDisposition: opts.downloadFilename ? contentDisposition(opts.downloadFilename) : undefined,
      ResponseContentType: opts.contentType,
    });
    return getSignedUrl(this.client, cmd, { expiresIn: opts.expiresInSeconds });
  }

  private manifestKey(uploadId: string): string {
    return `${MANIFEST_PREFIX}${createHash('sha256').update(uploadId).digest('hex')}.json`;
  }

  async createMultipart(key: string, opts: { contentType: string; size: number; partSize: number; expiresInSeconds: number }): Promise<MultipartUpload> {
    assertValidKey(key);
    const sizes = partSizes(opts.size, opts.partSize);
    if (sizes.length > 1 && opts.partSize < S3_MIN_PART_SIZE) throw new Error(`S3 parts must be at least ${S3_MIN_PART_SIZE} bytes`);
    if (opts.partSize > S3_MAX_PART_SIZE) throw new Error(`S3 parts must be at most ${S3_MAX_PART_SIZE} bytes`);
    const created = await this.client.send(new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: key, ContentType: opts.contentType }));
    const uploadId = created.UploadId;
    if (!uploadId) throw new Error('CreateMultipartUpload answered no UploadId');
    // The store keeps no declared size: completion needs it to tell a missing last part from a short file.
    const manifest: Manifest = { key, size: opts.size, partSize: opts.partSize, contentType: opts.contentType };
    await this.client.send(
      new PutObjectCommand({ Bucket: this.bucket, Key: this.manifestKey(uploadId), Body: JSON.stringify(manifest), ContentType: 'application/json' }),
    );
    const parts = await Promise.all(
      sizes.map(async (size, i) => ({
        part_number: i + 1,
        size,
        // Content-Length is signed by default on UploadPart.
        url: await getSignedUrl(
          this.client,
          new UploadPartCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId, PartNumber: i + 1, ContentLength: size }),
          { expiresIn: opts.expiresInSeconds },
        ),
      })),
    );
    return { uploadId, partSize: opts.partSize, parts };
  }

  private async readManifest(uploadId: string): Promise<Manifest | null> {
    try {
      const res = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.manifestKey(uploadId) }));
      return JSON.parse(await res.Body!.transformToString()) as Manifest;
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  /** Every uploaded part, or null when the store does not implement ListParts (s3rver, some gateways). */
  private async listParts(key: string, uploadId: string): Promise<Array<{ number: number; etag: string; size: number }> | null> {
    const out: Array<{ number: number; etag: string; size: number }> = [];
    let marker: string | undefined;
    for (;;) {
      let res;
      try {
        res = await this.client.send(new ListPartsCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId, PartNumberMarker: marker }));
      } catch (err) {
        const name = errorName(err);
        if (name === 'MethodNotAllowed' || name === 'NotImplemented' || httpStatus(err) === 405 || httpStatus(err) === 501) return null;
        throw err;
      }
      for (const p of res.Parts ?? []) out.push({ number: p.PartNumber!, etag: p.ETag!, size: p.Size ?? -1 });
      if (!res.IsTruncated || !res.NextPartNumberMarker) return out;
      marker = res.NextPartNumberMarker;
    }
  }

  /** After a crash between completion and manifest removal, the object is there with the declared size. */
  private async alreadyCompleted(key: string, manifest: Manifest | null): Promise<boolean> {
    const info = await this.head(key);
    return info !== null && (manifest === null || info.size === manifest.size);
  }

  async completeMultipart(key: string, uploadId: string, uploaded?: UploadedPart[]): Promise<void> {
    assertValidKey(key);
    const manifest = await this.readManifest(uploadId);
    if (!manifest) {
      if (await this.alreadyCompleted(key, null)) return;
      throw new DomainError('FILE_NOT_FOUND');
    }
    if (manifest.key !== key) throw new DomainError('FILE_NOT_FOUND');
    const sizes = partSizes(manifest.size, manifest.partSize);

    let listed;
    try {
      listed = await this.listParts(key, uploadId);
    } catch (err) {
      if (errorName(err) !== 'NoSuchUpload') throw err;
      if (!(await this.alreadyCompleted(key, manifest))) throw new DomainError('FILE_NOT_FOUND');
      await this.deleteManifest(uploadId);
      return;
    }
    let parts: CompletedPart[];
    if (listed) {
      const byNumber = new Map(listed.map((p) => [p.number, p]));
      parts = sizes.map((size, i) => {
        const p = byNumber.get(i + 1);
        if (!p || p.size !== size) throw new DomainError('FILE_NOT_FOUND');
        return { PartNumber: i + 1, ETag: p.etag };
      });
    } else {
      if (!uploaded) {
        throw new Error('this S3-compatible store does not implement ListParts: pass the ETag answered to each part PUT to completeMultipart');
      }
      const byNumber = new Map(uploaded.map((p) => [p.part_number, p.etag]));
      parts = sizes.map((_, i) => {
        const etag = byNumber.get(i + 1);
        if (!etag) throw new DomainError('FILE_NOT_FOUND');
        return { PartNumber: i + 1, ETag: etag };
      });
    }

    try {
      await this.client.send(new CompleteMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId, MultipartUpload: { Parts: parts } }));
    } catch (err) {
      const name = errorName(err);
      if (name === 'NoSuchUpload' && (await this.alreadyCompleted(key, manifest))) {
        await this.deleteManifest(uploadId);
        return;
      }
      if (name === 'InvalidPart' || name === 'InvalidPartOrder' || name === 'NoSuchUpload') throw new DomainError('FILE_NOT_FOUND');
      throw err;
    }
    // Without ListParts the part sizes were not checked: the assembled object must have the declared size.
    const info = await this.head(key);
    if (!info || info.size !== manifest.size) {
      await this.delete(key);
      await this.deleteManifest(uploadId);
      throw new DomainError('FILE_NOT_FOUND');
    }
    await this.deleteManifest(uploadId);
  }

  /**
   * Server-side copy of the upload key's object to `key`, then the upload key is deleted. A presigned PUT
   * cannot be refused, so the object the service measured must live where no upload URL writes: a PUT
   * replayed afterwards only writes `uploadKey` again (a lifecycle rule on `uploads/` removes it).
   * CopyObject copies up to 5 GiB, the single-PUT ceiling, and keeps the content type.
   */
  async commitUpload(uploadKey: string, key: string): Promise<void> {
    assertValidKey(uploadKey);
    assertValidKey(key);
    if (uploadKey === key) throw new Error('commitUpload needs a key other than the upload key');
    try {
      await this.client.send(new CopyObjectCommand({ Bucket: this.bucket, Key: key, CopySource: `${this.bucket}/${uploadKey}` }));
    } catch (err) {
      if (isNotFound(err)) throw new DomainError('FILE_NOT_FOUND');
      throw err;
    }
    await this.delete(uploadKey);
  }

  private async deleteManifest(uploadId: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.manifestKey(uploadId) }));
  }

  async head(key: string): Promise<ObjectInfo | null> {
    assertValidKey(key);
    try {
      const res = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { size: res.ContentLength ?? 0, contentType: res.ContentType };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async putFile(key: string, localPath: string, contentType: string): Promise<void> {
    assertValidKey(key);
    const { size } = await fsp.stat(localPath);
    if (size <= this.threshold) {
      await this.client.send(
        new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: fs.createReadStream(localPath), ContentLength: size, ContentType: contentType }),
      );
      return;
    }
    const partSize = Math.max(this.putPartSize, Math.ceil(size / 10_000));
    const sizes = partSizes(size, partSize);
    const created = await this.client.send(new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: key, ContentType: contentType }));
    const uploadId = created.UploadId!;
    try {
      const done: CompletedPart[] = new Array(sizes.length);
      let next = 0;
      const worker = async () => {
        while (next < sizes.length) {
          const i = next++;
          const start = i * partSize;
          const res = await this.client.send(
            new UploadPartCommand({
              Bucket: this.bucket,
              Key: key,
              UploadId: uploadId,
              PartNumber: i + 1,
              ContentLength: sizes[i],
              Body: fs.createReadStream(localPath, { start, end: start + sizes[i] - 1 }),
            }),
          );
          done[i] = { PartNumber: i + 1, ETag: res.ETag };
        }
      };
      await Promise.all(Array.from({ length: Math.min(4, sizes.length) }, worker));
      await this.client.send(new CompleteMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId, MultipartUpload: { Parts: done } }));
    } catch (err) {
      await this.client.send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId })).catch(() => {});
      throw err;
    }
  }

  async read(key: string, range?: { start: number; end: number }): Promise<Readable> {
    assertValidKey(key);
    if (range && (!Number.isSafeInteger(range.start) || !Number.isSafeInteger(range.end) || range.start < 0 || range.end < range.start)) {
      throw new RangeError(`range ${range.start}-${range.end} is not valid`);
    }
    try {
      const res = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: key, Range: range ? `bytes=${range.start}-${range.end}` : undefined }),
      );
      return res.Body as Readable;
    } catch (err) {
      if (isNotFound(err)) throw new DomainError('FILE_NOT_FOUND');
      if (errorName(err) === 'InvalidRange' || httpStatus(err) === 416) {
        throw new RangeError(`range ${range?.start}-${range?.end} is not satisfiable`, { cause: err });
      }
      throw err;
    }
  }

  async withLocalFile<T>(key: string, fn: (path: string) => Promise<T>): Promise<T> {
    const body = await this.read(key);
    await fsp.mkdir(this.tmpDir, { recursive: true });
    const dir = await fsp.mkdtemp(path.join(this.tmpDir, 's3-'));
    try {
      const file = path.join(dir, `object${path.extname(key)}`);
      await pipeline(body, fs.createWriteStream(file, { flags: 'wx' }));
      return await fn(file);
    } finally {
      await fsp.rm(dir, { recursive: true, force: true });
    }
  }

  async delete(key: string): Promise<void> {
    assertValidKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async ping(): Promise<void> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
  }
}
