import fs from 'node:fs';
import path from 'node:path';
import { HumanFaceDetector } from '../../src/adapters/faces/human.face-detector.js';
import { decodeImage } from '../../src/adapters/images/image-format.js';
import { facePortraitEngine, meshFaceOf } from '../../test/helpers/face-portraits.js';
import { syntheticFace } from '../../test/helpers/persona-fixtures.js';
import { borderStreaks, clippedShare, meanColour, meshBox } from '../../test/helpers/portrait-checks.js';

/**
 * Own-face portraits (the embedded engine, vibe `friendly`) from the six synthetic faces as they are
 * (each fills its frame, so the crop runs past it): per face, the share of clipped face pixels (any
 * channel at 0 or 255, inside the box around the face mesh) in the photo and in the portrait, the
 * border streaks (test/helpers/portrait-checks.ts: runs of 32 px or more) and the longest, and how far
 * the face's mean colour moved (largest channel difference, levels).
 */

export interface PortraitEvalRow {
  face: number;
  photo_clipped: number;
  portrait_clipped: number;
  streaks: number;
  longest_streak: number;
  tone_shift: number;
}

export interface PortraitEvalResult {
  faces: PortraitEvalRow[];
  /** Faces with a streak, and with more clipping than the photo's plus 2 points. */
  with_streaks: number;
  over_clipped: number;
}

const FACES = [42, 44, 45, 49, 53, 55] as const;

export async function evalPortraits(dir: string, log: (line: string) => void): Promise<PortraitEvalResult> {
  const work = fs.mkdtempSync(path.join(dir, 'portraits-'));
  const detector = await HumanFaceDetector.create({ mesh: true });
  const engine = facePortraitEngine(work);
  const faces: PortraitEvalRow[] = [];
  try {
    for (const n of FACES) {
      const file = syntheticFace(n);
      const photo = await decodeImage(file);
      const face = await meshFaceOf(detector, photo);
      const res = await engine.render({
        chips: { vibe: 'friendly' },
        note: null,
        faces: [{ id: `face_${n}`, bytes: fs.readFileSync(file), face }],
        seed: 'eval',
      });
      const out = await decodeImage(Buffer.from(res.png));
      const outFace = await meshFaceOf(detector, out);
      const streaks = borderStreaks(out);
      const a = meanColour(photo, meshBox(face.mesh));
      const b = meanColour(out, meshBox(outFace.mesh));
      const row: PortraitEvalRow = {
        face: n,
        photo_clipped: round(clippedShare(photo, meshBox(face.mesh))),
        portrait_clipped: round(clippedShare(out, meshBox(outFace.mesh))),
        streaks: streaks.length,
        longest_streak: streaks.reduce((m, s) => Math.max(m, s.run), 0),
        tone_shift: Math.round(Math.max(...a.map((v, c) => Math.abs(v - b[c])))),
      };
      faces.push(row);
      log(
        `  face-${n}: clipped ${(100 * row.photo_clipped).toFixed(1)} % → ${(100 * row.portrait_clipped).toFixed(1)} %, ` +
          `${row.streaks} streaks (longest ${row.longest_streak} px), tone shift ${row.tone_shift}`,
      );
    }
  } finally {
    await detector.close();
    fs.rmSync(work, { recursive: true, force: true });
  }
  return {
    faces,
    with_streaks: faces.filter((f) => f.streaks > 0).length,
    over_clipped: faces.filter((f) => f.portrait_clipped > f.photo_clipped + 0.02).length,
  };
}

const round = (x: number) => Math.round(x * 10000) / 10000;
