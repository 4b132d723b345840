import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { buildStudio, checkStudioPage, launchStudioBrowser } from '../helpers/studio-browser.js';
import { tempDir } from '../helpers/app.js';
import { makeTalkVideo } from '../helpers/speech-fixtures.js';
import { freePort, runCli, waitForHttp, type Proc, stopServe } from '../helpers/process.js';
import { startStaticServer, type StaticServer } from '../helpers/static-server.js';
import { probe } from '../../src/adapters/media/ffprobe.js';
import { Cutroom, ok } from '../../sdk/src/index.js';

/**
 * The Studio in a real browser (Debian's chromium driven by playwright-core, no browser download)
 * against `cutroom serve` as a real process: sign in, upload a talk through the file input, wait for
 * its clips, play one, keep one, fix a word and save a version, render and download the MP4, the
 * credits; every page at 1440x900 and 390x844 with axe-core, screenshots in test-results/studio/.
 */

let dir: string;
let talk: string;
let server: Proc;
/** "A public link": the talk and a text file, on loopback (the service is told it may fetch private addresses). */
let links: StaticServer;
let base: string;
let key: string;
let adminToken: string;
let browser: Browser;
let page: Page;
let cutroom: Cutroom;
let cspViolations: string[] = [];
let pageErrors: string[] = [];

beforeAll(async () => {
  dir = tempDir('cutroom-studio-e2e-');
  // The Studio as the sources are now (Vite takes a second or two); the service serves dist/web.
  buildStudio();
  talk = (await makeTalkVideo(path.join(dir, 'talk.mp4'), { minutes: 1.1 })).path;
  fs.writeFileSync(path.join(dir, 'notes.txt'), 'not a video');
  links = await startStaticServer(dir);
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const dataDir = path.join(dir, 'data');
  server = runCli(['serve'], {
    CUTROOM_DATA_DIR: dataDir,
    PORT: String(port),
    PUBLIC_BASE_URL: base,
    CUTROOM_ADMIN_TOKEN: '',
    CUTROOM_ALLOW_PRIVATE_SOURCES: 'true',
  });
  await waitForHttp(`${base}/readyz`, 180_000);
  key = fs.readFileSync(path.join(dataDir, 'api-key'), 'utf8').trim();
  // The first start prints the Studio's address beside the key.
  expect(server.output()).toContain(`Or open the Studio at ${base}/ and sign in with this key.`);
  adminToken = fs.readFileSync(path.join(dataDir, 'admin-token'), 'utf8').trim();
  cutroom = new Cutroom({ baseUrl: base, apiKey: key });
  ({ browser, page, cspViolations, pageErrors } = await launchStudioBrowser([]));
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await links?.close();
  await stopServe(server);
  fs.rmSync(dir, { recursive: true, force: true });
});

async function admin(method: string, url: string, body?: unknown) {
  const res = await fetch(`${base}/admin/v1${url}`, {
    method,
    headers: { authorization: `Bearer ${adminToken}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  expect(res.status, `${method} ${url}`).toBeLessThan(300);
  return res.json();
}

/** The page at both sizes: fits the window, axe, a screenshot of each (test/helpers/studio-browser.ts). */
const check = (name: string) => checkStudioPage(page, name);

const h1 = () => page.getByRole('heading', { level: 1 });

let videoId: string;
let submissionId: string;
let firstClipTitle: string;
let clipId: string;

describe('Cutroom Studio in a browser', () => {
  it('signs in with the API key (a wrong one shows the error under the field), keeps it in sessionStorage only; an inline script is refused by the CSP', async () => {
    const res = await page.goto(`${base}/`);
    expect(res?.headers()['content-security-policy']).toContain("default-src 'self'");
    expect(res?.headers()['x-frame-options']).toBe('DENY');
    await expect(h1().textContent()).resolves.toBe('Sign in');
    await check('sign-in');

    // Keyboard only: Tab to the field, type, Enter.
    for (let i = 0; i < 5 && (await page.evaluate(() => document.activeElement?.id)) !== 'api-key'; i++) await page.keyboard.press('Tab');
    await expect(page.evaluate(() => document.activeElement?.id)).resolves.toBe('api-key');
    await page.keyboard.type('key_wrong.wrong');
    await page.keyboard.press('Enter');
    const field = page.getByLabel('API key');
    const error = page.getByRole('alert');
    await expect(error.textContent()).resolves.toMatch(/not accepted/);
    await expect(field.getAttribute('aria-describedby')).resolves.toBe(await error.getAttribute('id'));
    await check('sign-in-error');

    await field.fill(key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Personal' }).waitFor();
    expect(await page.evaluate(() => Object.values(sessionStorage))).toContain(key);
    expect(await page.evaluate(() => Object.keys(localStorage).length)).toBe(0);
    expect(await page.context().cookies()).toEqual([]);
    expect(page.url()).not.toContain(key);

    await page.addScriptTag({ content: 'window.__inline = 1' }).catch(() => undefined);
    expect(await page.evaluate(() => (window as unknown as { __inline?: number }).__inline)).toBeUndefined();
    expect(cspViolations.length).toBeGreaterThan(0);
    cspViolations.length = 0;
  }, 120_000);

  it('Home: the workspace, its balance, then "Unlimited" with the end date under free usage; navigation by keyboard', async () => {
    await expect(page.getByText('120 credits').isVisible()).resolves.toBe(true);
    await check('home-empty');
    const ws = await ok(cutroom.api.GET('/api/v1/workspace'));
    const until = new Date(Date.now() + 30 * 86_400_000);
    await admin('PUT', `/workspaces/${ws.id}/free-usage`, { until: until.toISOString() });
    // Enough ledger rows for two pages of history.
    for (let i = 0; i < 21; i++) await admin('POST', `/workspaces/${ws.id}/credits`, { amount: 1, reason: `bonus ${i + 1}` });
    await page.reload();
    await page.getByText('Unlimited').waitFor();
    const year = String(until.getUTCFullYear());
    await expect(page.locator('.stat').first().textContent()).resolves.toContain(year);
    expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link').allTextContents()).toEqual([
      'Home',
      'New clips',
      'Posts',
      'Transcriptions',
      'Monitors',
      'Personas',
      'Generations',
      'Credits',
      'Settings',
    ]);

    // The nav link by keyboard: focus it, Enter; focus lands on the new page's heading.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'New clips' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(`${base}/new`);
    await page.waitForFunction(() => document.activeElement?.tagName === 'H1' && document.activeElement.textContent === 'New clips');
  }, 120_000);

  it('New clips: a Video link is analysed (title, duration, cost), an unusable one refused in words', async () => {
    await check('new-clips');
    const link = page.getByLabel('Video link');
    await link.fill(`${links.url}/notes.txt`);
    await page.getByRole('button', { name: 'Analyse' }).click();
    const refusal = page.locator('#video-link-error');
    await refusal.waitFor({ timeout: 60_000 });
    const words = await refusal.textContent();
    expect(words).toMatch(/^[A-Z][a-z]+( [\w’,.:-]+){3,}/); // a sentence, the code only in brackets after it
    // The SDK's reason for INVALID_URL's `extra.reason` (`unsupported_host`): what to give instead.
    expect(words).toMatch(/the link is not a media file .*\(INVALID_URL\)$/);
    await expect(link.getAttribute('aria-describedby')).resolves.toBe('video-link-error');
    await check('new-clips-link-error');

    await link.fill(`${links.url}/talk.mp4`);
    await page.getByRole('button', { name: 'Analyse' }).click();
    await page.getByRole('heading', { name: 'Ready to clip' }).waitFor({ timeout: 60_000 });
    const facts = await page.getByRole('definition').allTextContents();
    expect(facts[1]).toBe('1:06');
    expect(facts[2]).toMatch(/^2 credits/);
  }, 180_000);

  it('New clips: uploads the file chosen in "Video file" with progress in percent, shows its cost, and Get clips starts the submission', async () => {
    await page.reload(); // a clean page: the link's video is forgotten
    await h1().filter({ hasText: 'New clips' }).waitFor();
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { __progress: string[] }).__progress = seen;
      new MutationObserver(() => {
        const label = document.querySelector('label[for="upload-progress"]');
        if (label?.textContent) seen.push(label.textContent);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await page.getByLabel('Video file').setInputFiles(talk);
    await page.getByRole('heading', { name: 'Ready to clip' }).waitFor({ timeout: 60_000 });
    const progress = await page.evaluate(() => (window as unknown as { __progress: string[] }).__progress);
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.every((p) => /^Uploading talk\.mp4: \d{1,3} %$/.test(p))).toBe(true);
    const facts = await page.getByRole('definition').allTextContents();
    expect(facts[0]).toBe('talk');
    expect(facts[2]).toMatch(/^2 credits, waived/);
    expect(facts[3]).toMatch(/Unchanged/);
    await page.getByLabel('Language').selectOption('en');
    await page.getByLabel('What to look for (optional)').fill('what you need to know');
    await check('new-clips-ready');
    await page.getByRole('button', { name: 'Get clips' }).click();
    await page.waitForURL(/\/submissions\/vid_\w+\/sub_\w+$/);
    [videoId, submissionId] = new URL(page.url()).pathname.split('/').slice(2);
    const created = await ok(cutroom.api.GET('/api/v1/clips/{videoId}/submissions/{submissionId}', { params: { path: { videoId, submissionId } } }));
    expect(created.prompt).toBe('what you need to know');
  }, 180_000);

  it('the submission: its progress while it runs (on Home too, updated without a reload), then its clips as cards sorted by rating', async () => {
    await h1().filter({ hasText: 'Getting your clips' }).waitFor();
    await check('submission-running');
    // Home lists it with its stage while it runs, and shows it done without a reload.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' }).click();
    const item = page.getByRole('listitem').filter({ has: page.getByRole('link', { name: /^Submission of / }) });
    await item.first().waitFor();
    const running = await ok(cutroom.api.GET('/api/v1/clips/{videoId}/submissions/{submissionId}', { params: { path: { videoId, submissionId } } }));
    if (running.status !== 'completed') {
      await expect(item.first().getByRole('progressbar').count()).resolves.toBe(1);
      await check('home-running');
    }
    await item.first().getByText('Done', { exact: true }).waitFor({ timeout: 600_000 });
    await item
      .first()
      .getByRole('link', { name: /^Submission of / })
      .click();
    await page.waitForURL(new RegExp(`/submissions/${videoId}/${submissionId}$`));
    // Reloading the page's own address serves the Studio again.
    await page.reload();
    await page.getByRole('heading', { level: 1, name: /^[1-9]\d* clips?$/ }).waitFor({ timeout: 60_000 });
    const sub = await ok(cutroom.api.GET('/api/v1/clips/{videoId}/submissions/{submissionId}', { params: { path: { videoId, submissionId } } }));
    expect(sub.status).toBe('completed');
    const cards = page.getByRole('article');
    await expect(cards.count()).resolves.toBe(sub.clips_count);
    const ratings = (await cards.locator('.rating').allTextContents()).map((t) => Number(/Rating ([\d.]+)/.exec(t)![1]));
    expect(ratings).toEqual([...ratings].sort((a, b) => b - a));
    const { clips } = await ok(
      cutroom.api.GET('/api/v1/clips/{videoId}/submissions/{submissionId}/clips', {
        params: { path: { videoId, submissionId }, query: { sort: 'rating', order: 'desc' } },
      }),
    );
    firstClipTitle = clips[0].title;
    await expect(cards.first().getByRole('heading', { level: 2 }).textContent()).resolves.toBe(firstClipTitle);
    // Why it scored as it did: the reason and the four sub-scores, as the API gives them.
    const scores = clips[0].score_details!;
    expect(clips[0].reason).not.toBe('');
    await expect(cards.first().locator('.reason').textContent()).resolves.toBe(clips[0].reason);
    await expect(cards.first().getByLabel(`Scores of ${firstClipTitle}`).getByRole('definition').allTextContents()).resolves.toEqual(
      [scores.hook, scores.coherence, scores.value, scores.delivery].map((v) => v.toFixed(1)),
    );
  }, 900_000);

  it('a card plays its clip’s preview render in place, and Keep marks it kept (aria-pressed, the API, the kept filter)', async () => {
    const card = page.getByRole('article').filter({ has: page.getByRole('heading', { name: firstClipTitle }) });
    await card.getByText('Preview of the current edit').waitFor({ timeout: 180_000 });
    const video = card.locator('video');
    expect(await video.getAttribute('src')).toMatch(/\/files\/renders\//);
    await video.evaluate((v: HTMLVideoElement) => {
      v.muted = true;
      return v.play();
    });
    await page.waitForFunction((el) => (el as HTMLVideoElement).currentTime > 0.5, await video.elementHandle(), { timeout: 30_000 });
    await video.evaluate((v: HTMLVideoElement) => v.pause());

    const keep = card.getByRole('button', { name: 'Keep' });
    await expect(keep.getAttribute('aria-pressed')).resolves.toBe('false');
    // By keyboard: Skip with Space (Keep is released), then Keep with Enter.
    const skip = card.getByRole('button', { name: 'Skip' });
    await skip.focus();
    await page.keyboard.press('Space');
    await expect.poll(() => skip.getAttribute('aria-pressed')).toBe('true');
    await expect.poll(() => keep.getAttribute('aria-pressed')).toBe('false');
    const skipped = await ok(
      cutroom.api.GET('/api/v1/clips/{videoId}/submissions/{submissionId}/clips', {
        params: { path: { videoId, submissionId }, query: { review: 'skipped' } },
      }),
    );
    expect(skipped.clips.map((c) => c.title)).toEqual([firstClipTitle]);
    await keep.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => keep.getAttribute('aria-pressed')).toBe('true');
    await expect.poll(() => skip.getAttribute('aria-pressed')).toBe('false');
    const { clips } = await ok(
      cutroom.api.GET('/api/v1/clips/{videoId}/submissions/{submissionId}/clips', { params: { path: { videoId, submissionId }, query: { review: 'kept' } } }),
    );
    expect(clips.map((c) => c.title)).toEqual([firstClipTitle]);
    await page.getByLabel('Kept clips only').check();
    await expect.poll(() => page.getByRole('article').count()).toBe(1);
    await page.getByLabel('Kept clips only').uncheck();
    await check('submission-clips');
  }, 400_000);

  let editId: string;
  let newEditId: string;
  it('the editor: the current word follows the playhead, a click seeks, a word fixed (Enter saves, Escape cancels) and saved as a version the clip points at', async () => {
    const card = page.getByRole('article').filter({ has: page.getByRole('heading', { name: firstClipTitle }) });
    await card.getByRole('link', { name: /^Edit/ }).click();
    await page.waitForURL(/\/clips\/clip_\w+$/);
    clipId = new URL(page.url()).pathname.split('/').pop()!;
    await h1().filter({ hasText: firstClipTitle }).waitFor();
    const words = page.getByRole('listbox', { name: 'Transcript' }).getByRole('option');
    await words.first().waitFor();
    const before = (
      await ok(cutroom.api.GET('/api/v1/clips/{videoId}/submissions/{submissionId}/clips', { params: { path: { videoId, submissionId } } }))
    ).clips.find((c) => c.id === clipId)!;
    editId = before.edit_id!;
    const edit = await cutroom.getEdit(editId);
    await expect(words.count()).resolves.toBe(edit.words.length);
    await page.getByText('Preview of the current edit').waitFor({ timeout: 180_000 });

    // Clicking the fourth word seeks the preview to it, and that word becomes the current one.
    const target = edit.words[3];
    await words.nth(3).click();
    await page.waitForFunction((i) => document.querySelector(`#word-${i}`)?.getAttribute('aria-current') === 'true', target.index);
    const at = await page.locator('video').evaluate((v: HTMLVideoElement) => v.currentTime);
    expect(Math.abs(at - (target.start - edit.segments[0].start))).toBeLessThan(0.3);
    // Playing moves the current word along.
    await page.locator('video').evaluate((v: HTMLVideoElement) => {
      v.muted = true;
      return v.play();
    });
    await page.waitForFunction(
      (i) => !!document.querySelector('[role=option][aria-current=true]') && document.querySelector(`#word-${i}`)?.getAttribute('aria-current') !== 'true',
      target.index,
      {
        timeout: 20_000,
      },
    );
    await page.locator('video').evaluate((v: HTMLVideoElement) => v.pause());

    // Escape cancels a correction (keyboard: the focused word, Enter, type, Escape).
    const second = edit.words[1];
    await words.nth(1).focus();
    await page.keyboard.press('Enter');
    const box = page.getByLabel('Word', { exact: true });
    await page.waitForFunction(() => document.activeElement?.id === 'word-box');
    await page.keyboard.type('zzz');
    await page.keyboard.press('Escape');
    await box.waitFor({ state: 'detached' });
    await expect(words.nth(1).textContent()).resolves.toBe(second.text);
    await page.waitForFunction((id) => document.activeElement?.id === id, `word-${second.index}`);

    // Cut, then Undo: nothing is left to save.
    await words.nth(2).click();
    await page.getByRole('button', { name: 'Cut' }).click();
    await expect.poll(() => words.nth(2).getAttribute('class')).toContain('cut');
    await page.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => words.nth(2).getAttribute('class')).not.toContain('cut');
    await expect.poll(() => page.getByRole('button', { name: 'Save version' }).isDisabled()).toBe(true);

    // Double-click, type, Enter: the word is corrected; Save version derives the new edit.
    await words.nth(1).dblclick();
    await box.fill('Kubernetes');
    await box.press('Enter');
    await expect.poll(() => words.nth(1).textContent()).toBe('Kubernetes');
    await check('editor');
    await page.getByRole('button', { name: 'Save version' }).click();
    await page.getByText(/^Saved: version/).waitFor({ timeout: 30_000 });
    const versions = page.getByRole('heading', { name: 'Versions' }).locator('..').getByRole('listitem');
    await expect.poll(() => versions.count(), { timeout: 10_000 }).toBe(2);
    await expect.poll(() => versions.first().textContent()).toContain('current');

    // Over the API: the clip points at the new edit, whose word has the new text and whose parent is the old edit.
    const after = (
      await ok(cutroom.api.GET('/api/v1/clips/{videoId}/submissions/{submissionId}/clips', { params: { path: { videoId, submissionId } } }))
    ).clips.find((c) => c.id === clipId)!;
    newEditId = after.edit_id!;
    expect(newEditId).not.toBe(editId);
    const derived = await cutroom.getEdit(newEditId);
    expect(derived.parent_edit_id).toBe(editId);
    expect(derived.words.find((w) => w.index === second.index)?.text).toBe('Kubernetes');
    // Its preview is made and played in the editor.
    await page.getByText('Preview of the current edit').waitFor({ timeout: 120_000 });
    expect(await page.locator('video').getAttribute('src')).toMatch(/\/files\/renders\//);
  }, 400_000);

  it('Remove silences makes a version with the pauses cut: the voice detector heard, the edit no longer', async () => {
    const versions = page.getByRole('heading', { name: 'Versions' }).locator('..').getByRole('listitem');
    const before = await versions.count();
    const previous = await cutroom.getEdit(newEditId);
    await page.getByRole('switch', { name: 'Remove silences' }).check();
    await page.getByRole('button', { name: 'Save version' }).click();
    await expect.poll(() => versions.count(), { timeout: 30_000 }).toBe(before + 1);
    const saved = (await cutroom.listEditVersions(newEditId)).edits[0];
    expect(saved.parent_edit_id).toBe(previous.id);
    // Pauses are only ever shortened: never longer, and every word kept.
    expect(saved.duration).toBeLessThanOrEqual(previous.duration);
    expect(saved.words.map((w) => w.index)).toEqual(previous.words.map((w) => w.index));
    await expect.poll(() => page.getByRole('switch', { name: 'Remove silences' }).isChecked()).toBe(false);
    newEditId = saved.id;
  }, 120_000);

  it('Versions: one previews in the player, Restore makes a copy of it the clip’s edit', async () => {
    const list = await cutroom.listEditVersions(newEditId);
    const first = list.edits.at(-1)!;
    await page.getByRole('button', { name: 'Preview version 1' }).click();
    await expect.poll(() => page.locator('figcaption').textContent(), { timeout: 60_000 }).toBe('Preview of version 1');
    await page.getByRole('button', { name: 'Back to the current version' }).click();
    await page.getByRole('button', { name: 'Restore version 1' }).click();
    await page.getByText(/^Restored version 1/).waitFor({ timeout: 30_000 });
    const after = await cutroom.listEditVersions(newEditId);
    expect(after.edits).toHaveLength(list.edits.length + 1);
    expect(after.edits[0].parent_edit_id).toBe(first.id);
    const clip = (
      await ok(cutroom.api.GET('/api/v1/clips/{videoId}/submissions/{submissionId}/clips', { params: { path: { videoId, submissionId } } }))
    ).clips.find((c) => c.id === clipId)!;
    expect(clip.edit_id).toBe(after.edits[0].id);
    newEditId = after.edits[0].id;
  }, 120_000);

  it('Trim start here, Trim end here, a square aspect ratio and a centred layout make a version with that stretch and layout', async () => {
    const base = await cutroom.getEdit(newEditId);
    const words = page.getByRole('listbox', { name: 'Transcript' }).getByRole('option');
    await expect.poll(() => words.count()).toBe(base.words.length);
    const from = base.words[2];
    const to = base.words[base.words.length - 3];
    await words.nth(2).click();
    await page.getByRole('button', { name: 'Trim start here' }).click();
    await words.nth(base.words.length - 3).click();
    await page.getByRole('button', { name: 'Trim end here' }).click();
    await expect.poll(() => words.nth(1).getAttribute('class')).toContain('outside');
    await page.getByRole('radio', { name: 'Square 1:1' }).check();
    await page.getByLabel('Layout').selectOption({ label: 'Centre of the picture' });
    await page.getByRole('button', { name: 'Save version' }).click();
    await page.getByText(/^Saved: version/).waitFor({ timeout: 30_000 });
    const trimmed = (await cutroom.listEditVersions(newEditId)).edits[0];
    expect(trimmed.parent_edit_id).toBe(base.id);
    expect(trimmed.aspect_ratio).toBe('1:1');
    expect(trimmed.reframe).toBe('center');
    // Boundaries snap into the gaps beside the words (at most 0.25 s away).
    expect(Math.abs(trimmed.segments[0].start - from.start)).toBeLessThanOrEqual(0.26);
    expect(Math.abs(trimmed.segments.at(-1)!.end - to.end)).toBeLessThanOrEqual(0.26);
    expect(trimmed.words.map((w) => w.index)).toEqual(base.words.slice(2, base.words.length - 2).map((w) => w.index));
    newEditId = trimmed.id;
  }, 120_000);

  it('Render makes the final MP4 of the current version with progress, then Download; the same edit again comes from the cache', async () => {
    const current = (await cutroom.listEditVersions(newEditId)).edits[0];
    await page.getByRole('button', { name: 'Render', exact: true }).click();
    const download = page.getByRole('link', { name: 'Download' });
    await download.waitFor({ timeout: 300_000 });
    await check('editor-rendered');
    const url = await download.getAttribute('href');
    const file = path.join(dir, 'download.mp4');
    fs.writeFileSync(file, Buffer.from(await (await fetch(url!)).arrayBuffer()));
    const info = await probe(file);
    expect(info.hasVideo).toBe(true);
    expect(Math.abs(info.duration - current.duration)).toBeLessThan(1);

    // Back to the clips: the card's Render of the same edit is served from the cache.
    await page.getByRole('link', { name: 'All clips' }).click();
    const card = page.getByRole('article').filter({ has: page.getByRole('heading', { name: firstClipTitle }) });
    await card.getByRole('button', { name: /^Render/ }).click();
    await card.getByText(/Served from the cache/).waitFor({ timeout: 60_000 });
  }, 400_000);

  it('Credits: the ledger with pagination, the free-usage charge marked waived', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Credits' }).click();
    await page.getByRole('heading', { level: 1, name: 'Credits' }).waitFor();
    await page.getByRole('row').nth(1).waitFor();
    await expect(page.getByText(/^Page 1 of 2$/).isVisible()).resolves.toBe(true);
    const ledger = await ok(cutroom.api.GET('/api/v1/balance/history', { params: { query: { page: 1, limit: 20 } } }));
    const waived = ledger.entries.filter((e) => e.waived).length;
    expect(waived).toBeGreaterThan(0);
    await expect(page.locator('tr.waived').count()).resolves.toBe(waived);
    await expect(page.locator('tr.waived').first().textContent()).resolves.toContain('Waived');
    await check('credits');
    await page.getByRole('link', { name: 'Next page' }).click();
    await page.waitForURL(`${base}/credits?page=2`);
    await page.getByText(/^Page 2 of 2$/).waitFor();
    await page.reload();
    await page.getByText(/^Page 2 of 2$/).waitFor();
    await check('credits-page-2');

    // Home lists the finished submission.
    await page.getByRole('link', { name: 'Home' }).first().click();
    await page
      .getByText(/^\d+ clips?/)
      .first()
      .waitFor();
    await check('home');
  }, 120_000);

  it('Sign out forgets the key; the pages had no CSP violation and no script error', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    expect(cspViolations).toEqual([]);
    expect(pageErrors).toEqual([]);
  }, 60_000);

  it('a key of several workspaces asks which one, then works in it (X-Workspace-Id)', async () => {
    const first = await ok(cutroom.api.GET('/api/v1/workspace'));
    const second = await admin('POST', '/workspaces', { name: 'Second studio', credits: 5 });
    const both = await admin('POST', '/keys', { workspace_ids: [first.id, second.id] });
    await page.getByLabel('API key').fill(both.key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(/several workspaces/);
    const choice = page.getByLabel('Workspace');
    expect((await choice.locator('option').allTextContents()).sort()).toEqual([first.name, 'Second studio'].sort());
    await choice.selectOption(second.id);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Second studio' }).waitFor();
    await page.getByText('5 credits').waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
  }, 60_000);
});
