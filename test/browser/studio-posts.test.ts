import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { buildStudio, checkStudioPage, launchStudioBrowser, signIn } from '../helpers/studio-browser.js';
import { tempDir } from '../helpers/app.js';
import { makeTalkVideo } from '../helpers/speech-fixtures.js';
import { FakeYouTube } from '../helpers/fake-networks.js';
import { type Proc, startServe, stopServe } from '../helpers/process.js';
import { Cutroom, ok } from '../../sdk/src/index.js';
import { LIMITS } from '../../src/shared/publish-limits.js';

/**
 * The Studio's Publish form (clip editor) and Posts page in a real browser (Debian's chromium driven by
 * playwright-core) against `cutroom serve` as a real process, YouTube faked on loopback
 * (test/helpers/fake-networks.ts) and accounts connected through the admin API: no account → how to
 * connect; publish now → the published link on Posts; a schedule on the calendar, rescheduled, deleted;
 * a failed item in words, retried, a sibling removed; the API's refusals in words; both window sizes.
 */

const ADMIN = 'posts-e2e-admin-token-0123456789abcdef';
let dir: string;
let yt: FakeYouTube;
let server: Proc;
let base: string;
let key: string;
let browser: Browser;
let page: Page;
let cutroom: Cutroom;
let cspViolations: string[] = [];
let pageErrors: string[] = [];
let workspaceId: string;
let editorUrl: string;
let clipTitle: string;
let editId: string;

beforeAll(async () => {
  dir = tempDir('cutroom-studio-posts-e2e-');
  buildStudio();
  const talk = (await makeTalkVideo(path.join(dir, 'talk.mp4'), { minutes: 1.1 })).path;
  yt = await new FakeYouTube().start();
  ({ server, base, key } = await startServe(dir, {
    CUTROOM_ADMIN_TOKEN: ADMIN,
    CUTROOM_YOUTUBE_API_BASE: yt.url,
    CUTROOM_YOUTUBE_OAUTH_BASE: yt.oauthBase,
    CUTROOM_YOUTUBE_CLIENT_ID: yt.clientId,
    CUTROOM_YOUTUBE_CLIENT_SECRET: yt.clientSecret,
    CUTROOM_PUBLISH_RENDER_WAIT_MS: '500',
    CUTROOM_PUBLISH_RETRY_BASE_MS: '200',
  }));
  cutroom = new Cutroom({ baseUrl: base, apiKey: key, pollIntervalMs: () => 1000 });
  workspaceId = (await ok(cutroom.api.GET('/api/v1/workspace'))).id;
  // One processed submission for the whole file: its best clip is what gets published.
  const video = await cutroom.uploadVideo(talk);
  const sub = await ok(cutroom.api.POST('/api/v1/clips', { body: { video_id: video.id, source_language: 'en' } }));
  await cutroom.waitForSubmission(sub.video_id, sub.id, { timeoutMs: 600_000 });
  const { clips } = await ok(
    cutroom.api.GET('/api/v1/clips/{videoId}/submissions/{submissionId}/clips', {
      params: { path: { videoId: sub.video_id, submissionId: sub.id }, query: { sort: 'rating', order: 'desc' } },
    }),
  );
  clipTitle = clips[0].title;
  editId = clips[0].edit_id!;
  editorUrl = `${base}/submissions/${sub.video_id}/${sub.id}/clips/${clips[0].id}`;
  // Its final render made beforehand: every post item reuses it, so publishing waits on no render.
  const render = await ok(cutroom.api.POST('/api/v1/renders', { body: { edit_id: editId } }));
  await cutroom.waitForRender(render.id, { timeoutMs: 600_000 });
  ({ browser, page, cspViolations, pageErrors } = await launchStudioBrowser());
  // Delete and Remove ask first; the person says yes.
  page.on('dialog', (d) => void d.accept());
  await signIn(page, base, key);
}, 900_000);

afterAll(async () => {
  await browser?.close();
  await stopServe(server);
  await yt?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

afterEach(() => {
  expect(yt.violations).toEqual([]);
  expect(cspViolations).toEqual([]);
  expect(pageErrors).toEqual([]);
});

async function connect(body: Record<string, unknown>): Promise<string> {
  const res = await fetch(`${base}/admin/v1/workspaces/${workspaceId}/connections`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

const check = (name: string) => checkStudioPage(page, name);

/** Waits for what the page should show once the worker has published; on a timeout, says what the API holds. */
async function waitForPublished(locator: Locator): Promise<void> {
  try {
    await locator.waitFor({ timeout: 240_000 });
  } catch (err) {
    const { posts: now } = await cutroom.posts.list({ limit: 10 });
    throw new Error(`${String(err)}\nposts: ${JSON.stringify(now.map((p) => ({ status: p.status, items: p.items.map((i) => [i.status, i.error_code]) })))}`, {
      cause: err,
    });
  }
}
const form = () => page.getByRole('region', { name: 'Publish' });
const posts = () => page.getByRole('list', { name: 'Posts, newest first' });
/** A post of the list by its heading ("Scheduled for …", "Published …"). */
const post = (heading: string | RegExp) =>
  posts()
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { level: 3, name: heading }) });

/** The editor of the clip with its Publish form open. */
async function openPublish(): Promise<Locator> {
  await page.goto(editorUrl);
  await page.getByRole('heading', { level: 1, name: clipTitle }).waitFor({ timeout: 60_000 });
  const toggle = page.getByRole('button', { name: 'Publish' }).and(page.locator('[aria-expanded]'));
  await toggle.click();
  await expect(toggle.getAttribute('aria-expanded')).resolves.toBe('true');
  await page.waitForFunction(() => document.activeElement?.id === 'publish-h');
  return form();
}

/** A date-time-local value `days` from today at `hour`:00, in the browser's (and this process's) time zone. */
function localAt(days: number, hour: number): { value: string; date: Date } {
  const now = new Date();
  const date = new Date(now.getFullYear(), now.getMonth(), now.getDate() + days, hour, 0);
  const pad = (n: number) => String(n).padStart(2, '0');
  return { value: `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(hour)}:00`, date };
}

const dayLabel = (d: Date) => `Posts on ${new Intl.DateTimeFormat('en', { day: 'numeric', month: 'long', year: 'numeric' }).format(d)}`;
const monthLabel = (d: Date) => new Intl.DateTimeFormat('en', { month: 'long', year: 'numeric' }).format(d);

/** The calendar showing the month of `d` (Previous/Next month from wherever it is). */
async function showMonth(d: Date): Promise<void> {
  const cal = page.getByRole('region', { name: 'Calendar' });
  for (let i = 0; i < 24; i++) {
    const [name, year] = (await cal.locator('.calendar-month').textContent())!.split(' ');
    const month = Array.from({ length: 12 }, (_, m) => new Intl.DateTimeFormat('en', { month: 'long' }).format(new Date(2000, m, 1))).indexOf(name);
    const diff = (d.getFullYear() - Number(year)) * 12 + d.getMonth() - month;
    if (diff === 0) break;
    await cal.getByRole('button', { name: diff > 0 ? 'Next month' : 'Previous month' }).click();
  }
  await expect(cal.getByRole('table').getByRole('caption').textContent()).resolves.toContain(monthLabel(d));
}

let youtubeMain: string;
let youtubeSecond: string;
let localSite: string;

describe('Publish and Posts in the Studio', () => {
  it('with no account connected, the form says so and how an account gets connected', async () => {
    const f = await openPublish();
    const notice = f.getByRole('status');
    await expect(notice.textContent()).resolves.toMatch(/No account is connected to this workspace yet.*nowhere to publish/);
    await expect(notice.textContent()).resolves.toContain('POST /admin/v1/workspaces/<workspace>/connections');
    await expect.poll(() => f.getByRole('button', { name: 'Publish' }).count()).toBe(0);
    await check('publish-no-account');
    // Posts is in the navigation after New clips, and empty.
    const nav = await page.getByRole('navigation', { name: 'Main' }).getByRole('link').allTextContents();
    expect(nav.indexOf('Posts')).toBe(nav.indexOf('New clips') + 1);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Posts' }).click();
    await page.waitForURL(`${base}/posts`);
    await page.getByText('Nothing published or scheduled yet.').waitFor();
  }, 120_000);

  it('publish now to YouTube: the limit counts down as the title is typed, an over-long title is refused in words, then the post shows its link', async () => {
    youtubeMain = await connect({ platform: 'youtube', account_name: 'My channel', credentials: { refresh_token: yt.refreshToken } });
    youtubeSecond = await connect({ platform: 'youtube', account_name: 'Second channel', credentials: { refresh_token: yt.refreshToken } });
    localSite = await connect({ platform: 'local', account_name: 'site' });
    const f = await openPublish();
    await f.getByRole('checkbox', { name: 'YouTube: My channel' }).check();
    const title = f.getByLabel('Title', { exact: true });
    // The clip's title to start with, and what is left of YouTube's limit (the service's own table).
    await expect(title.inputValue()).resolves.toBe(clipTitle.slice(0, LIMITS.youtube.title));
    await title.fill('Big moment');
    await expect(f.locator('#publish-youtube-title-left').textContent()).resolves.toBe(`${LIMITS.youtube.title - 10} characters left`);
    await title.fill('x'.repeat(LIMITS.youtube.title + 1));
    await expect(f.locator('#publish-youtube-title-left').textContent()).resolves.toBe('1 character too many');
    await expect(title.getAttribute('aria-invalid')).resolves.toBe('true');
    await f.getByLabel('Description (optional)').fill('héllo');
    await expect(f.locator('#publish-youtube-description-left').textContent()).resolves.toBe(`${LIMITS.youtube.descriptionBytes - 6} bytes left`);
    await expect(f.getByLabel('Privacy').inputValue()).resolves.toBe('private');
    await f.getByLabel('Privacy').selectOption('unlisted');
    await f.getByRole('button', { name: 'Publish' }).click();
    const refusal = f.getByRole('alert');
    await expect(refusal.textContent()).resolves.toBe(
      'The publishing details are not accepted: check “youtube.title”. (INVALID_METADATA) YouTube: Title is not accepted as it is.',
    );
    await expect(title.getAttribute('aria-describedby')).resolves.toContain('publish-error');
    await check('publish-refused');

    await title.fill('Big moment');
    await f.getByRole('button', { name: 'Publish' }).click();
    await expect(f.getByRole('status').textContent()).resolves.toBe('Publishing now to 1 account. See it on Posts');
    await check('publish-form');
    await f.getByRole('link', { name: 'See it on Posts' }).click();
    await page.getByRole('heading', { level: 1, name: 'Posts' }).waitFor();
    const link = posts().getByRole('link', { name: 'See it on YouTube' });
    await waitForPublished(link);
    expect(yt.videos.size).toBe(1);
    const [video] = yt.videos.values();
    expect(video.snippet).toMatchObject({ title: 'Big moment', description: 'héllo' });
    expect(video.status.privacyStatus).toBe('unlisted');
    await expect(link.getAttribute('href')).resolves.toBe(`https://www.youtube.com/watch?v=${video.id}`);
    const published = post(/^Published /);
    await expect(published.getByText('Published', { exact: true }).count()).resolves.toBe(2); // the post's badge and its item's
    await expect(published.textContent()).resolves.toContain('YouTube: My channel');
    // Today's cell of the calendar holds it.
    await expect(page.getByRole('list', { name: dayLabel(new Date()) }).textContent()).resolves.toContain('Published: Big moment');
  }, 600_000);

  it('a schedule in the past is refused in words; one in the future is on the calendar, rescheduled (the past refused again), then deleted', async () => {
    const f = await openPublish();
    await f.getByRole('checkbox', { name: 'YouTube: Second channel' }).check();
    await f.getByLabel('Title', { exact: true }).fill('Later on');
    const past = localAt(-1, 9);
    await f.getByLabel('Schedule for (optional)').fill(past.value);
    await f.getByRole('button', { name: 'Publish' }).click();
    await expect(f.getByRole('alert').textContent()).resolves.toBe('The time in “Schedule for” has passed: pick a time to come. (VALIDATION_ERROR)');
    await expect(f.getByLabel('Schedule for (optional)').getAttribute('aria-invalid')).resolves.toBe('true');

    const later = localAt(3, 15);
    await f.getByLabel('Schedule for (optional)').fill(later.value);
    await f.getByRole('button', { name: 'Publish' }).click();
    await expect(f.getByRole('status').textContent()).resolves.toMatch(/^Scheduled for .* to 1 account\. See it on Posts$/);
    await f.getByRole('link', { name: 'See it on Posts' }).click();
    await page.getByRole('heading', { level: 1, name: 'Posts' }).waitFor();

    await showMonth(later.date);
    const onDay = page.getByRole('list', { name: dayLabel(later.date) });
    await expect(onDay.textContent()).resolves.toBe('15:00 Scheduled: Later on');
    // The months around it move and come back.
    const cal = page.getByRole('region', { name: 'Calendar' });
    await cal.getByRole('button', { name: 'Next month' }).click();
    await expect.poll(() => onDay.count()).toBe(0);
    await cal.getByRole('button', { name: 'Previous month' }).click();
    await onDay.waitFor();
    const scheduled = post(/^Scheduled for /);
    await expect(scheduled.getByText('Scheduled', { exact: true }).count()).resolves.toBe(1);
    await expect(scheduled.textContent()).resolves.toContain('YouTube: Second channel');
    await check('posts-scheduled');

    await scheduled.getByRole('button', { name: 'Reschedule' }).click();
    const time = scheduled.getByLabel('New time');
    await expect(time.inputValue()).resolves.toBe(later.value);
    await time.fill(past.value);
    await scheduled.getByRole('button', { name: 'Save new time' }).click();
    await expect(scheduled.getByRole('alert').textContent()).resolves.toBe('The time in “New time” has passed: pick a time to come. (VALIDATION_ERROR)');
    const moved = localAt(4, 18);
    await time.fill(moved.value);
    await scheduled.getByRole('button', { name: 'Save new time' }).click();
    await showMonth(moved.date);
    const movedDay = page.getByRole('list', { name: dayLabel(moved.date) });
    await expect(movedDay.textContent()).resolves.toBe('18:00 Scheduled: Later on');
    await showMonth(later.date);
    await expect.poll(() => page.getByRole('list', { name: dayLabel(later.date) }).count()).toBe(0);
    const { posts: listed } = await cutroom.posts.list({ limit: 10 });
    const pending = listed.find((p) => p.status === 'pending')!;
    expect(new Date(pending.scheduled_at!).getTime()).toBe(moved.date.getTime());

    await post(/^Scheduled for /)
      .getByRole('button', { name: 'Delete post' })
      .click();
    await expect.poll(() => post(/^Scheduled for /).count()).toBe(0);
    await showMonth(moved.date);
    await expect.poll(() => movedDay.count()).toBe(0);
    expect((await cutroom.posts.list({ limit: 10 })).posts.map((p) => p.id)).not.toContain(pending.id);
  }, 180_000);

  it('a failed item shows its error in words and Retry publishes it; Remove takes one item out and leaves its sibling', async () => {
    // YouTube refuses the next upload: the item fails for good (AUTH_REVOKED), the local one is published.
    yt.failOnce({ step: 'init', status: 403, body: { error: { code: 403, message: 'forbidden', errors: [{ reason: 'forbidden' }] } } });
    const f = await openPublish();
    await f.getByRole('checkbox', { name: 'YouTube: Second channel' }).check();
    await f.getByRole('checkbox', { name: 'This service: site' }).check();
    const titles = f.getByLabel('Title', { exact: true });
    await expect(titles.count()).resolves.toBe(2);
    await f.getByRole('group', { name: 'YouTube' }).getByLabel('Title', { exact: true }).fill('Try again');
    await f.getByRole('group', { name: 'This service' }).getByLabel('Title', { exact: true }).fill('On the site');
    await f.getByRole('group', { name: 'This service' }).getByLabel('Caption (optional)').fill('#one @two');
    await f.getByRole('button', { name: 'Publish' }).click();
    await expect(f.getByRole('status').textContent()).resolves.toBe('Publishing now to 2 accounts. See it on Posts');
    await f.getByRole('link', { name: 'See it on Posts' }).click();

    // The one post with an item on the site (a post's own listitem has a heading).
    const partial = posts()
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { level: 3 }) })
      .filter({ hasText: 'This service: site' });
    await waitForPublished(partial.getByText('Partly published', { exact: true }));
    const failed = partial.getByRole('listitem').filter({ hasText: 'YouTube: Second channel' });
    await expect(failed.locator('.item-error').textContent()).resolves.toBe(
      'The network no longer lets the service post to this account (access withdrawn or a permission missing): connect it again. (AUTH_REVOKED)',
    );
    await expect(partial.getByRole('link', { name: 'Open the published video' }).getAttribute('href')).resolves.toMatch(new RegExp(`^${base}/published/site/`));
    await check('posts-failed-item');

    await failed.getByRole('button', { name: 'Retry YouTube: Second channel' }).click();
    await waitForPublished(failed.getByRole('link', { name: 'See it on YouTube' }));
    await expect.poll(() => failed.locator('.item-error').count()).toBe(0);
    expect([...yt.videos.values()].map((v) => v.snippet.title)).toContain('Try again');

    const done = posts()
      .getByRole('listitem')
      .filter({ has: page.getByRole('link', { name: 'Open the published video' }) });
    await done.getByRole('button', { name: 'Remove This service: site' }).click();
    await expect.poll(() => done.count()).toBe(0);
    const after = (await cutroom.posts.list({ limit: 10 })).posts.find((p) =>
      p.items.some((i) => i.metadata.youtube && (i.metadata.youtube as { title?: string }).title === 'Try again'),
    )!;
    expect(after.items.map((i) => [i.connection_id, i.status])).toEqual([[youtubeSecond, 'published']]);
    expect(after.status).toBe('completed');
    expect([youtubeMain, localSite]).not.toContain(after.items[0].connection_id);
    expect(editId).toBe(after.items[0].edit_id);
    await check('posts');
  }, 600_000);
});
