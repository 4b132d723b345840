import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, tempDir, type TestApp } from '../helpers/app.js';
import { multipart } from '../helpers/generation-fixtures.js';
import { claimedPng, enlargedPhoto, solidPng } from '../helpers/image-fixtures.js';
import { facePhoto } from '../helpers/persona-fixtures.js';
import { HumanFaceDetector } from '../../src/adapters/faces/human.face-detector.js';
import { personaFaces } from '../../src/adapters/db/schema/index.js';
import type { RgbFrame } from '../../src/ports/face-detector.js';

/**
 * Issue 23, finding 2: caller images are read within bounds. `POST /personas/faces` refuses a photo
 * above 40 MP from its header (400 UNSUPPORTED_IMAGE `too_many_pixels`, the one ceiling of
 * src/adapters/images/image-format.ts) and finds faces on a copy of at most 2048 px on its long side,
 * decoded shrunk, instead of the full photo (a 105 KB 6000×6000 PNG cost ~600 MB before). The memory
 * bound is checked deterministically: the face detector is watched (0 compute threads, so it runs in
 * this process) and must never receive a frame above 2048 px. Refusals change nothing: no charge, no
 * face record, no stored file.
 */

const MAX_SIDE = 2048;

let t: TestApp;
let fx: string;
let face: string;

beforeAll(async () => {
  fx = tempDir('cutroom-image-decoding-');
  face = await facePhoto(path.join(fx, 'face.png'));
  t = await createTestApp({ env: { CUTROOM_COMPUTE_THREADS: '0' } });
}, 120_000);

afterAll(async () => {
  await t?.close();
  if (fx) fs.rmSync(fx, { recursive: true, force: true });
});

afterEach(() => {
  vi.restoreAllMocks();
});

/** The frames the face detector receives from now on. */
function watchDetector(): RgbFrame[] {
  const frames: RgbFrame[] = [];
  const original = HumanFaceDetector.prototype.detectMesh;
  vi.spyOn(HumanFaceDetector.prototype, 'detectMesh').mockImplementation(function (this: HumanFaceDetector, frame: RgbFrame) {
    frames.push({ width: frame.width, height: frame.height, data: new Uint8Array(0) });
    return original.call(this, frame);
  });
  return frames;
}

function upload(key: string, bytes: Buffer, name: string, type: string) {
  const m = multipart('photo', name, type, bytes, { own_face_adult: 'true' });
  return t.api(key, 'POST', '/personas/faces', m.body, m.headers);
}

/** What a refused upload must leave unchanged: the balance, the workspace's face records and its stored files. */
async function state(ws: { id: string; key: string }) {
  const balance = (await t.api(ws.key, 'GET', '/balance')).body.balance;
  const faces = await t.c.database.db.select().from(personaFaces).where(eq(personaFaces.workspaceId, ws.id));
  const dir = path.join(t.dataDir, 'files', 'personas', ws.id);
  const files = fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true }) : [];
  return { balance, faces: faces.length, files };
}

describe('POST /personas/faces reads photos within bounds', () => {
  it('a small high-dimension PNG (6000×6000 in ~120 KB) is read from a copy of at most 2048 px; above 40 MP it is refused from its header; nothing charged or stored', async () => {
    const ws = await t.workspace({ credits: 5 });
    const before = await state(ws);
    const frames = watchDetector();

    const big = await solidPng(6000, 6000);
    expect(big.length).toBeLessThan(300_000);
    const read = await upload(ws.key, big, 'big.png', 'image/png');
    expect({ status: read.status, body: read.body }).toEqual({ status: 422, body: { code: 'NO_FACE_FOUND' } });
    // The memory bound: the detector saw the bounded copy, never the 36 MP image.
    expect(frames.length).toBeGreaterThan(0);
    for (const f of frames) expect(Math.max(f.width, f.height)).toBeLessThanOrEqual(MAX_SIDE);

    // Above the ceiling (a header claiming 100 000 × 100 000): refused before anything is decoded.
    frames.length = 0;
    const bomb = await upload(ws.key, claimedPng(100_000, 100_000), 'bomb.png', 'image/png');
    expect({ status: bomb.status, body: bomb.body }).toEqual({
      status: 400,
      body: { code: 'UNSUPPORTED_IMAGE', extra: { reason: 'too_many_pixels', max_pixels: 40_000_000 } },
    });
    expect(frames).toEqual([]);

    expect(await state(ws)).toEqual(before);
    expect(before).toEqual({ balance: 5, faces: 0, files: [] });
  }, 120_000);

  it('a 6000×4000 (24 MP) face photo: the face is found on a copy of at most 2048 px and answered in the photo’s own pixels', async () => {
    const ws = await t.workspace();
    const photo = await enlargedPhoto(face, 6000, 4000);
    const frames = watchDetector();

    const res = await upload(ws.key, photo.bytes, 'me.jpg', 'image/jpeg');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ width: 6000, height: 4000, face: { landmarks: 468 } });
    expect(frames.length).toBeGreaterThan(0);
    for (const f of frames) expect(Math.max(f.width, f.height)).toBeLessThanOrEqual(MAX_SIDE);

    // The fixture's face (320 px of its 640 px photo, centred, a third down) scaled 6.25× in the
    // photo: its box lies in the photo's pixels, not in the copy's.
    const box = res.body.face.box;
    const centreX = box.x + box.width / 2;
    expect(Math.abs(centreX - (photo.left + photo.side / 2))).toBeLessThan(photo.side * 0.1);
    expect(box.width).toBeGreaterThan(photo.side * 0.25);
    expect(box.x + box.width).toBeLessThanOrEqual(6000);
    expect(box.y + box.height).toBeLessThanOrEqual(4000);

    const stored = await t.c.database.db.select().from(personaFaces).where(eq(personaFaces.workspaceId, ws.id));
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ width: 6000, height: 4000 });
  }, 120_000);
});
