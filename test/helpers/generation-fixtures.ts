import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { expect } from 'vitest';
import type { TestApp } from './app.js';

/** Images and requests shared by the generation tests. */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** A synthetic portrait (a person who does not exist, test/fixtures/images/README.md), 512×512 JPEG. */
export const PORTRAIT = path.join(ROOT, 'test/fixtures/images/portrait.jpg');

/** Where tests leave frames for a person to look at (ignored by git). */
export function framesDir(name: string): string {
  const dir = path.join(ROOT, '.tmp', 'generation-frames', name);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

/** A `width`×`height` picture with gradients and shapes (not flat, so models have something to work on). */
export async function pattern(width: number, height: number, format: 'png' | 'jpeg' | 'webp' = 'png'): Promise<Buffer> {
  const data = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      const inCircle = (x - width / 2) ** 2 + (y - height / 2) ** 2 < (Math.min(width, height) / 4) ** 2;
      data[i] = inCircle ? 230 : Math.round((x / width) * 255);
      data[i + 1] = inCircle ? 40 : Math.round((y / height) * 255);
      data[i + 2] = (x >> 3) % 2 === (y >> 3) % 2 ? 200 : 60;
    }
  }
  const img = sharp(data, { raw: { width, height, channels: 3 } });
  return (format === 'png' ? img.png() : format === 'jpeg' ? img.jpeg({ quality: 90 }) : img.webp({ quality: 90 })).toBuffer();
}

/** The portrait on a wider scene (a person with room around them), as PNG. */
export async function portraitScene(width = 640, height = 480): Promise<Buffer> {
  const face = await sharp(PORTRAIT)
    .resize(Math.round(height * 0.8), Math.round(height * 0.8))
    .toBuffer();
  const scene = await pattern(width, height, 'png');
  return sharp(scene)
    .composite([{ input: face, top: Math.round(height * 0.2), left: Math.round((width - height * 0.8) / 2) }])
    .png()
    .toBuffer();
}

/** A multipart/form-data body with one file field (and text fields). */
export function multipart(
  field: string,
  fileName: string,
  contentType: string,
  bytes: Buffer,
  fields: Record<string, string> = {},
): { body: Buffer; headers: Record<string, string> } {
  const boundary = `----cutroom${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  parts.push(
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${fileName}"\r\nContent-Type: ${contentType}\r\n\r\n`),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { body: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** POST /generations/images with `bytes`; expects 201 and answers the image. */
export async function uploadImage(
  t: TestApp,
  key: string,
  bytes: Buffer,
  name = 'image.png',
): Promise<{ id: string; width: number; height: number; content_type: string; url: string }> {
  const m = multipart('image', name, 'image/png', bytes);
  const res = await t.api(key, 'POST', '/generations/images', m.body, m.headers);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

/** GETs a signed URL of the service (local storage) and answers its bytes. */
export async function download(t: TestApp, url: string): Promise<Buffer> {
  const u = new URL(url);
  const res = await t.app.inject({ method: 'GET', url: `${u.pathname}${u.search}` });
  expect(res.statusCode).toBe(200);
  return res.rawPayload;
}

/** Polls a generation until it leaves queued/processing. */
export async function waitGeneration(t: TestApp, key: string, id: string, timeoutMs = 300_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await t.api(key, 'GET', `/generations/${id}`);
    expect(res.status).toBe(200);
    if (res.body.status === 'ready' || res.body.status === 'failed') return res.body;
    if (Date.now() > deadline) throw new Error(`generation ${id} still ${res.body.status} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
