import { describe, expect, it } from 'vitest';
import { blobSource } from '../../sdk/src/upload-browser.js';
import { sendParts, uploadTargets, type PutPart, type UploadProgress } from '../../sdk/src/upload.js';
import { CutroomError } from '../../sdk/src/errors.js';
import { retryPolicy } from '../../sdk/src/retry.js';

// The Studio's uploads: a File (a Blob) sliced per part, each part sent by the browser transport. Here the
// transport is a recording stand-in, so the parts' bytes, order, retries and progress can be read back.
const bytes = new TextEncoder().encode('0123456789ABCDEFGHIJ'); // 20 bytes
const multipart = {
  part_size: 8,
  parts: [
    { part_number: 3, url: 'https://files.example/p3', size: 4 },
    { part_number: 1, url: 'https://files.example/p1', size: 8 },
    { part_number: 2, url: 'https://files.example/p2', size: 8 },
  ],
};
const noSleep = async () => {};

describe('the SDK’s browser upload (a Blob, part by part)', () => {
  it('takes the File’s name and type, or refuses a Blob without a name or a file the service does not take', () => {
    const file = new File([bytes], 'talk.MOV');
    expect(blobSource(file, {})).toMatchObject({ fileName: 'talk.MOV', size: 20, contentType: 'video/quicktime', rereadable: true });
    expect(blobSource(new Blob([bytes]), { fileName: 'clip.webm' }).contentType).toBe('video/webm');
    expect(() => blobSource(new Blob([bytes]), {})).toThrow(/fileName/);
    expect(() => blobSource(new File([bytes], 'notes.txt'), {})).toThrow(/\.mp4/);
  });

  it('sends each part’s own bytes in part order; a part that fails is sent again alone, and the upload goes on', async () => {
    const source = blobSource(new File([bytes], 'talk.mp4'), {});
    const targets = uploadTargets(multipart, source.size);
    expect(targets.map((t) => [t.url.slice(-2), t.start, t.length])).toEqual([
      ['p1', 0, 8],
      ['p2', 8, 8],
      ['p3', 16, 4],
    ]);
    const sent: Array<[string, string]> = [];
    let failures = 1;
    const put: PutPart<Blob> = async (url, body, length, contentType, onBytes) => {
      expect(contentType).toBe('video/mp4');
      expect(body.size).toBe(length);
      const text = await body.text();
      onBytes(Math.floor(length / 2));
      if (url.endsWith('p2') && failures-- > 0) throw new TypeError('network lost');
      onBytes(length - Math.floor(length / 2));
      sent.push([url.slice(-2), text]);
    };
    const progress: UploadProgress[] = [];
    await sendParts(source, targets, put, { policy: retryPolicy({ retries: 2 }), sleep: noSleep, onProgress: (p) => progress.push(p) });
    expect(sent).toEqual([
      ['p1', '01234567'],
      ['p2', '89ABCDEF'],
      ['p3', 'GHIJ'],
    ]);
    // The failed part's bytes are counted again from where that part began, never below the parts already sent.
    expect(progress.map((p) => p.sentBytes)).toEqual([4, 8, 12, 12, 16, 18, 20]);
    expect(progress.at(-1)).toEqual({ sentBytes: 20, totalBytes: 20 });
  });

  it('a refusal (4xx) is not retried: its CutroomError is thrown after the parts before it', async () => {
    const source = blobSource(new File([bytes], 'talk.mp4'), {});
    const tried: string[] = [];
    const put: PutPart<Blob> = async (url) => {
      tried.push(url.slice(-2));
      if (url.endsWith('p2')) throw new CutroomError({ status: 403, code: 'SIGNATURE_EXPIRED' });
    };
    await expect(sendParts(source, uploadTargets(multipart, source.size), put, { policy: retryPolicy(), sleep: noSleep })).rejects.toMatchObject({
      code: 'SIGNATURE_EXPIRED',
    });
    expect(tried).toEqual(['p1', 'p2']);
  });
});
