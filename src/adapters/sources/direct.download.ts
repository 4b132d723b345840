import fs from 'node:fs';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DomainError } from '../../domain/errors.js';
import { isPlaylistHead, PLAYLIST_HEAD_BYTES } from '../net/m3u8-syntax.js';
import { readHead, withHead } from '../net/read-body.js';
import type { SafeResponse } from '../net/safe-fetch.js';
import {
  fetchAttempt,
  isLocalIoError,
  isPolicyRefusal,
  sourceTooLarge,
  sourceUnreadable,
  throwIfAborted,
  withRetries,
  type DownloadContext,
  type Fetched,
} from './download-support.js';
import { downloadHls } from './hls.download.js';

/**
 * Direct links: the media file is streamed with safeFetch (address rules on every hop) into the work
 * dir, never held in memory. A connection cut mid-body is retried, resuming with `Range` + `If-Range`
 * when the server names a validator (strong ETag or Last-Modified). A body that starts as an HLS
 * playlist (`#EXTM3U`, whatever its content type or path) goes to downloadHls.
 */

type Retry = { kind: 'retry'; error: Error; delayMs?: number };

interface ResumeState {
  /** Bytes already in the work file. */
  have: number;
  /** Strong ETag or Last-Modified of the answer the bytes came from (`If-Range`). */
  validator?: string;
  /** Full size, when the source told it. */
  total?: number;
}

export async function downloadDirect(url: string, ctx: DownloadContext): Promise<Fetched> {
  const file = path.join(ctx.workDir, 'source.media');
  const state: ResumeState = { have: 0 };
  return withRetries<Fetched>(ctx, url, async () => {
    const headers: Record<string, string> = {};
    if (state.have > 0 && state.validator) {
      headers.range = `bytes=${state.have}-`;
      headers['if-range'] = state.validator;
    }
    const got = await fetchAttempt(url, ctx, { headers });
    if (got.kind !== 'response') return got;
    let res = got.res;
    if (state.have === 0) {
      // The body decides whether this is a playlist, whatever the content type or the path say.
      let peek: { head: Buffer; complete: boolean };
      try {
        peek = await readHead(res.body, PLAYLIST_HEAD_BYTES);
      } catch (err) {
        res.discard();
        throwIfAborted(ctx.signal);
        if (err instanceof DomainError && (err.code !== 'INVALID_URL' || isPolicyRefusal(err))) throw err;
        return { kind: 'retry', error: new Error(`${res.url}: body interrupted: ${(err as Error).message}`) };
      }
      if (isPlaylistHead(peek.head, peek.complete)) return downloadHls(res, peek.head, ctx);
      res = { ...res, body: withHead(peek.head, res.body) };
    }
    const type = String(res.headers['content-type'] ?? '');
    if (/^text\/(html|plain|xml)|^application\/(json|xml|xhtml)/i.test(type)) {
      res.discard();
      throw sourceUnreadable(`${res.url} answered ${type}, not media`);
    }
    return receive(res, file, state, ctx);
  });
}

/** `bytes <start>-<end>/<total|*>` → start and total. */
export function parseContentRange(value: string | undefined): { start: number; total?: number } | null {
  const m = /^bytes\s+(\d+)-(\d+)\/(\d+|\*)$/i.exec(value?.trim() ?? '');
  if (!m) return null;
  return { start: Number(m[1]), ...(m[3] !== '*' ? { total: Number(m[3]) } : {}) };
}

/** A validator that makes resuming safe: a strong ETag, else Last-Modified. */
function validatorOf(res: SafeResponse): string | undefined {
  const etag = res.headers.etag;
  if (typeof etag === 'string' && etag.startsWith('"')) return etag;
  const lm = res.headers['last-modified'];
  return typeof lm === 'string' && lm ? lm : undefined;
}

async function receive(res: SafeResponse, file: string, state: ResumeState, ctx: DownloadContext): Promise<Fetched | Retry> {
  const range = res.status === 206 ? parseContentRange(String(res.headers['content-range'] ?? '')) : null;
  const append = state.have > 0 && range !== null && range.start === state.have;
  if (!append) {
    // A fresh body: from the first byte (a 200, or a 206 we did not ask for).
    if (res.status === 206 && (range === null || range.start !== 0)) {
      res.discard();
      state.have = 0;
      state.validator = undefined;
      return { kind: 'retry', error: new Error(`${res.url} answered a range we did not ask for`) };
    }
    state.have = 0;
    state.validator = validatorOf(res);
    const declared = Number(res.headers['content-length']);
    state.total = range?.total ?? (Number.isFinite(declared) && declared > 0 ? declared : undefined);
  }
  if (state.total !== undefined && state.total > ctx.maxBytes) {
    res.discard();
    throw sourceTooLarge(ctx.maxBytes);
  }

  let written = state.have;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      written += chunk.length;
      if (written > ctx.maxBytes) return cb(sourceTooLarge(ctx.maxBytes));
      if (state.total) ctx.progress(written / state.total);
      cb(null, chunk);
    },
  });
  try {
    await pipeline(res.body, counter, fs.createWriteStream(file, { flags: append ? 'a' : 'w' }));
  } catch (err) {
    res.discard();
    throwIfAborted(ctx.signal);
    if (err instanceof DomainError && (err.code === 'SOURCE_TOO_LARGE' || isPolicyRefusal(err))) throw err;
    if (isLocalIoError(err)) throw err;
    // The connection was cut or went idle: keep what arrived and try again (resuming when possible).
    state.have = fileSize(file);
    return { kind: 'retry', error: new Error(`${res.url}: body interrupted after ${state.have} bytes: ${(err as Error).message}`) };
  }
  state.have = written;
  if (state.total !== undefined && written !== state.total) {
    return { kind: 'retry', error: new Error(`${res.url}: body ended after ${written} of ${state.total} bytes`) };
  }
  ctx.progress(1);
  return { kind: 'file', path: file };
}

function fileSize(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}
