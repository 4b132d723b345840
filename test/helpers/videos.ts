import fs from 'node:fs';
import path from 'node:path';
import type { TestApp } from './app.js';

/** Puts a local file into a workspace as an uploaded, completed video (no HTTP), and returns its id. */
export async function readyVideo(t: TestApp, workspaceId: string, file: string): Promise<string> {
  const ctx = await t.c.workspaces.get(workspaceId);
  const up = await t.c.videos.createUpload(ctx, { file_name: path.basename(file), file_size: fs.statSync(file).size, content_type: 'video/mp4' });
  const v = await t.c.videos.get(workspaceId, up.video_id);
  await t.c.storage.putFile(v.storageKey!, file, 'video/mp4');
  await t.c.videos.completeUpload(ctx, { video_id: v.id });
  return v.id;
}

export async function pollSubmission(t: TestApp, key: string, videoId: string, id: string, until: (s: any) => boolean, timeoutMs = 600_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/clips/${videoId}/submissions/${id}`, headers: { 'x-api-key': key } });
    const body = res.json();
    if (until(body)) return body;
    if (Date.now() > deadline) throw new Error(`submission ${id} still ${body.status} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 300));
  }
}
