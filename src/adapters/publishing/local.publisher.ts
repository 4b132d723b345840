import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Credentials, Publisher, PublishInput, PublishResult } from '../../ports/publisher.js';
import { PublishError } from '../../ports/publisher.js';
import { checkFile, checkMetadata } from './publish-http.js';
import { PUBLISHED_URL_PREFIX, SAFE_SEGMENT } from '../../shared/published-files.js';
import { checkCredentialFields } from './credentials-check.js';

/**
 * The `local` network: a real destination for self-hosting and tests. The MP4 and a JSON file of its metadata
 * land in `<dataDir>/published/<account>/<name>.mp4|.json` and are served read-only at
 * `${publicBaseUrl}/published/<account>/<name>.mp4` (src/http/routes/published.routes.ts). `<name>` comes from
 * the item's idempotency key, so a second attempt finds the file and answers the same URL. Files appear
 * atomically (written aside, then renamed): a crash never leaves a half-written video visible.
 */

export interface LocalPublisherOptions {
  /** `<dataDir>/published` (see `publishedDir`). */
  dir: string;
  /** The service's public address (PUBLIC_BASE_URL), without a trailing slash. */
  publicBaseUrl: string;
}

/** Folder name of an account: its name when already safe, else a readable slug plus a short hash. */
export function accountSegment(account: string): string {
  if (SAFE_SEGMENT.test(account)) return account;
  const slug =
    account
      .normalize('NFKD')
      .replace(/[^A-Za-z0-9_-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40) || 'account';
  return `${slug}-${crypto.createHash('sha256').update(account).digest('hex').slice(0, 8)}`;
}

/** File name (without extension) of an idempotency key: the key when safe, else its hash. */
export function keySegment(key: string): string {
  if (SAFE_SEGMENT.test(key) && key.length <= 100) return key;
  return crypto.createHash('sha256').update(key).digest('hex').slice(0, 32);
}

async function exists(file: string): Promise<boolean> {
  try {
    return (await fs.promises.stat(file)).isFile();
  } catch {
    return false;
  }
}

/** Writes `file` atomically by copy/write to a temporary name in the same folder, then rename. */
async function atomically(file: string, write: (tmp: string) => Promise<void>): Promise<void> {
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${crypto.randomBytes(6).toString('hex')}.tmp`);
  try {
    await write(tmp);
    await fs.promises.rename(tmp, file);
  } catch (err) {
    await fs.promises.rm(tmp, { force: true }).catch(() => {});
    throw err;
  }
}

export class LocalPublisher implements Publisher {
  readonly platform = 'local';
  readonly canPublishVideo = true;

  constructor(private readonly opts: LocalPublisherOptions) {}

  checkCredentials(credentials: Credentials): string | null {
    return checkCredentialFields(credentials);
  }

  async publish(input: PublishInput): Promise<PublishResult> {
    checkMetadata('local', input.metadata);
    const rawAccount = input.account || (typeof input.credentials.account_name === 'string' ? input.credentials.account_name : '');
    const account = accountSegment(rawAccount || 'default');
    const name = keySegment(input.idempotencyKey);
    const folder = path.join(this.opts.dir, account);
    const video = path.join(folder, `${name}.mp4`);
    const meta = path.join(folder, `${name}.json`);
    const result: PublishResult = {
      publishedUrl: `${this.opts.publicBaseUrl}${PUBLISHED_URL_PREFIX}${account}/${name}.mp4`,
      externalId: `${account}/${name}`,
    };
    // Already published by an earlier attempt of this item: same URL, nothing written again.
    if (await exists(video)) return result;

    await checkFile(input.file, input.sizeBytes);
    try {
      await fs.promises.mkdir(folder, { recursive: true });
      const record = {
        title: input.metadata.title,
        ...(input.metadata.caption !== undefined ? { caption: input.metadata.caption } : {}),
        metadata: input.metadata,
        account: rawAccount || 'default',
        size_bytes: input.sizeBytes,
        published_at: new Date().toISOString(),
      };
      // Metadata first: once the video is visible, its description is too.
      await atomically(meta, (tmp) => fs.promises.writeFile(tmp, `${JSON.stringify(record, null, 2)}\n`, { flag: 'wx' }));
      await atomically(video, (tmp) => fs.promises.copyFile(input.file, tmp, fs.constants.COPYFILE_EXCL));
    } catch (err) {
      const e = err as NodeJS.ErrnoException;
      const full = e.code === 'ENOSPC' || e.code === 'EDQUOT';
      throw new PublishError('UPLOAD_FAILED', `local publish to ${folder} failed: ${e.message}`, {
        retryable: full || e.code === 'EBUSY' || e.code === 'EAGAIN',
        cause: err,
      });
    }
    return result;
  }
}
