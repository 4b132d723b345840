import { Readable } from 'node:stream';
import type { IncomingHttpHeaders } from 'node:http';

/**
 * Reading the first bytes of an HTTP body to decide what it is (a playlist, which container) before
 * passing it on, and reading a small body whole under a size cap.
 */

/**
 * Reads at least `n` bytes of `body` (fewer only when it ends first) and leaves the rest unread, so the
 * stream can still be piped. `complete`: the body ended within `head`.
 */
export function readHead(body: Readable, n: number): Promise<{ head: Buffer; complete: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    let settled = false;
    const finish = (complete: boolean) => {
      if (settled) return;
      settled = true;
      cleanup();
      resolve({ head: Buffer.concat(chunks), complete });
    };
    const onReadable = () => {
      let chunk: Buffer | null;
      while (total < n && (chunk = body.read() as Buffer | null) !== null) {
        chunks.push(chunk);
        total += chunk.length;
      }
      if (total >= n) finish(false);
    };
    const onEnd = () => finish(true);
    const onError = (err: Error) => {
      if (settled) return;
      settled = true;
      cleanup();
      reject(err);
    };
    const onClose = () => {
      if (!body.readableEnded) onError(new Error('body closed before its end'));
    };
    function cleanup() {
      body.off('readable', onReadable);
      body.off('end', onEnd);
      body.off('error', onError);
      body.off('close', onClose);
    }
    if (body.readableEnded) return resolve({ head: Buffer.alloc(0), complete: true });
    body.on('readable', onReadable);
    body.on('end', onEnd);
    body.on('error', onError);
    body.on('close', onClose);
  });
}

/** `head` followed by the rest of `body`, as one stream (errors and destruction pass through). */
export function withHead(head: Buffer, body: Readable): Readable {
  async function* all() {
    if (head.length) yield head;
    for await (const chunk of body) yield chunk as Buffer;
  }
  const out = Readable.from(all(), { objectMode: false });
  out.once('close', () => {
    if (!body.destroyed) body.destroy();
  });
  return out;
}

/**
 * The whole body (after `head`, already read) as bytes; `tooLarge()` is thrown when the declared
 * Content-Length or the bytes read go over `maxBytes`.
 */
export async function readCapped(
  res: { headers: IncomingHttpHeaders; body: Readable },
  maxBytes: number,
  tooLarge: () => Error,
  head: Buffer = Buffer.alloc(0),
): Promise<Buffer> {
  const declared = Number(res.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge();
  const chunks: Buffer[] = [head];
  let total = head.length;
  if (total > maxBytes) throw tooLarge();
  for await (const chunk of res.body) {
    total += (chunk as Buffer).length;
    if (total > maxBytes) {
      res.body.destroy();
      throw tooLarge();
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}
