import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { buildStudio, checkStudioPage, launchStudioBrowser, signIn } from '../helpers/studio-browser.js';
import { tempDir } from '../helpers/app.js';
import { makeSpeechWav, makeTalkVideo, talkScript } from '../helpers/speech-fixtures.js';
import { airHls, makeBroadcastFixture, type Airing } from '../helpers/live-airing.js';
import { startStaticServer, type StaticServer } from '../helpers/static-server.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';
import { type Proc, startServe, stopServe } from '../helpers/process.js';
import { Cutroom, errorReason, verifyWebhook } from '../../sdk/src/index.js';

/**
 * The Studio's Monitors and Settings pages in a real browser (Debian's chromium driven by
 * playwright-core) against `cutroom serve` as a real process with its embedded engines, one server for
 * both pages (a webhook endpoint added on Settings receives the broadcast the Monitors page records).
 *
 * Settings: a refusal with no event chosen and one for an unusable URL, in words; an endpoint on the
 * suite's local receiver (private addresses allowed with CUTROOM_WEBHOOKS_ALLOW_PRIVATE) whose secret is
 * shown once with a Copy button; later its delivery log shows the `broadcast.started` the receiver got
 * (signed with that secret); Delete removes it.
 *
 * Monitors: a real live broadcast, as in test/e2e/monitor-live.test.ts (test/helpers/live-airing.ts):
 * ffmpeg airs 50 s of talk in real time as a live HLS playlist, the service records it in 20-second
 * batches (CUTROOM_LIVE_BATCH_SECONDS=20) and clips them with its embedded engines. In the browser: a
 * refusal in words (a link that is no channel), the monitor created with the form, Start, the broadcast
 * appearing with its first batch and that batch's clips (the submission page's clip cards, whose Edit
 * opens the same editor), then Stop. The whole live batch runs for real (about a minute): no broadcast
 * state is made through the API. A video monitor on a local RSS feed: started (the feed as it is is the
 * baseline), a new entry becomes a submission listed under Uploads clipped with a link to its page.
 * Every page at 1440x900 and 390x844 with axe-core, screenshots in test-results/studio/.
 */

const ADMIN = 'studio-monitors-admin-token-0123456789abcdef';
let dir: string;
let source: string;
let srv: StaticServer;
let receiver: Receiver;
let airing: Airing | undefined;
let server: Proc;
let base: string;
let key: string;
let browser: Browser;
let page: Page;
let cutroom: Cutroom;
let cspViolations: string[] = [];
let pageErrors: string[] = [];

beforeAll(async () => {
  dir = tempDir('cutroom-studio-monitors-e2e-');
  buildStudio();
  const wav = await makeSpeechWav(path.join(dir, 'talk.wav'), talkScript(50));
  source = path.join(dir, 'broadcast.ts');
  await makeBroadcastFixture(wav.path, wav.duration, source);
  fs.writeFileSync(path.join(dir, 'notes.txt'), 'a page of notes, not a channel');
  // A feed of uploads for a video monitor: one entry at first (the baseline), a second one later.
  const upload = (await makeTalkVideo(path.join(dir, 'talk.mp4'), { minutes: 1.1 })).path;
  for (const name of ['old1', 'new1']) fs.copyFileSync(upload, path.join(dir, `${name}.mp4`));
  srv = await startStaticServer(dir);
  fs.writeFileSync(path.join(dir, 'feed.xml'), rss(['old1']));
  receiver = await startReceiver();
  ({ server, base, key } = await startServe(dir, {
    CUTROOM_ADMIN_TOKEN: ADMIN,
    CUTROOM_ALLOW_PRIVATE_SOURCES: 'true',
    CUTROOM_WEBHOOKS_ALLOW_PRIVATE: 'true',
    CUTROOM_MONITOR_POLL_SECONDS: '1',
    CUTROOM_LIVE_BATCH_SECONDS: '20',
    CUTROOM_LIVE_STALL_SECONDS: '30',
  }));
  cutroom = new Cutroom({ baseUrl: base, apiKey: key });
  // Short clips, so that a 20-second batch of talk gives some (the strategy the Clip lengths field offers).
  const ws = await cutroom.workspace.get();
  const strategy = await fetch(`${base}/admin/v1/workspaces/${ws.id}/templates`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ kind: 'strategy', name: 'Live short', config: { min_seconds: 5, max_seconds: 15, max_clips: 3 } }),
  });
  expect(strategy.status).toBe(201);
  ({ browser, page, cspViolations, pageErrors } = await launchStudioBrowser());
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
  await signIn(page, base, key);
}, 300_000);

afterAll(async () => {
  airing?.proc.kill('SIGKILL');
  await browser?.close();
  await stopServe(server);
  await receiver?.close();
  await srv?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

function rss(items: string[]): string {
  return `<?xml version="1.0"?><rss version="2.0"><channel><title>Talks</title>${items
    .map((name) => `<item><title>${name}</title><guid>${name}</guid><enclosure url="${srv.url}/${name}.mp4" type="video/mp4"/></item>`)
    .join('')}</channel></rss>`;
}

const nav = () => page.getByRole('navigation', { name: 'Main' });
const alert = () => page.getByRole('alert');
let secret: string;
let endpointId: string;

describe('Studio: Monitors and Settings in a browser', () => {
  it('the navigation links Monitors after Transcriptions, and Settings last', async () => {
    const links = await nav().getByRole('link').allTextContents();
    expect(links.indexOf('Monitors')).toBeGreaterThan(links.indexOf('Transcriptions'));
    expect(links.indexOf('Transcriptions')).toBeGreaterThan(0);
    expect(links.at(-1)).toBe('Settings');
  });

  it('Settings: refusals in words, an endpoint added, its signing secret shown once with Copy', async () => {
    await nav().getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    await page.getByText('No endpoint yet.').waitFor();
    const reference = page.getByRole('link', { name: 'API reference' }).first();
    await expect(reference.getAttribute('href')).resolves.toBe('/api/v1/docs');
    await checkStudioPage(page, 'settings-empty');

    // No event chosen: refused before anything is sent.
    await page.getByLabel('Endpoint URL').fill(receiver.url);
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await expect(alert().textContent()).resolves.toBe('Choose at least one event to send to it.');
    // An address that is no URL: the service's refusal, in words.
    await page.getByLabel('Endpoint URL').fill('hooks at my server');
    await page.getByRole('checkbox', { name: 'broadcast.started' }).check();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await page.getByText('(INVALID_WEBHOOK_URL)').waitFor();
    const refusal = await alert().textContent();
    expect(refusal).toBe(`${errorReason('INVALID_WEBHOOK_URL', { reason: 'url' })} (INVALID_WEBHOOK_URL)`);
    expect(refusal).not.toMatch(/object Object|Error:/);
    expect((await cutroom.webhooks.list()).webhooks).toEqual([]);

    // The receiver, for two events.
    await page.getByLabel('Endpoint URL').fill(receiver.url);
    await page.getByRole('checkbox', { name: 'broadcast.ended' }).check();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const shown = page.getByRole('textbox', { name: 'Signing secret' });
    await shown.waitFor();
    secret = await shown.inputValue();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]{20,}$/);
    await expect(page.getByText('Keep it now: it will not be shown again.').isVisible()).resolves.toBe(true);
    await page.getByRole('button', { name: 'Copy secret' }).click();
    await page.getByRole('status').filter({ hasText: 'Copied.' }).waitFor();
    await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(secret);
    const [endpoint] = (await cutroom.webhooks.list()).webhooks;
    expect(endpoint).toMatchObject({ url: receiver.url, events: ['broadcast.started', 'broadcast.ended'] });
    expect(endpoint).not.toHaveProperty('secret');
    endpointId = endpoint.id;
    const list = page.getByRole('list', { name: 'Endpoints' });
    await list.getByText(receiver.url).waitFor();
    await expect(list.getByText('broadcast.started, broadcast.ended', { exact: false }).isVisible()).resolves.toBe(true);
    await checkStudioPage(page, 'settings-secret');

    // Shown once: after a reload the endpoint is listed, its secret is not.
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    await page.getByRole('list', { name: 'Endpoints' }).getByText(receiver.url).waitFor();
    await expect(page.getByRole('textbox', { name: 'Signing secret' }).count()).resolves.toBe(0);
    expect(await page.content()).not.toContain(secret);
  });

  it('Monitors: a refusal in words, a live monitor created, started, its broadcast’s batch and clips, stopped', async () => {
    await nav().getByRole('link', { name: 'Monitors' }).click();
    await page.getByRole('heading', { level: 1, name: 'Monitors' }).waitFor();
    await page.getByText('No monitor yet.').waitFor();
    await checkStudioPage(page, 'monitors-empty');

    // A page that is no channel, feed or playlist: the service's refusal, in words.
    await page.getByLabel('Channel link').fill(`${srv.url}/notes.txt`);
    await page.getByRole('button', { name: 'Create monitor' }).click();
    await page.getByText('(INVALID_URL)').waitFor();
    const refusal = (await alert().textContent()) ?? '';
    expect(refusal).toMatch(/^[A-Z].+\(INVALID_URL\)$/);
    expect(refusal).not.toMatch(/object Object|Error:/);

    // On air: ffmpeg writes the live playlist in real time.
    airing = airHls(source, dir, 'show', srv.url);
    const deadline = Date.now() + 20_000;
    while (!fs.existsSync(path.join(dir, 'show', 'live.m3u8')) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));

    await page.getByLabel('Live broadcasts, while they air').check();
    await page.getByLabel('Channel link').fill(airing.url);
    await page.getByLabel('Name (optional)').fill('Evening show');
    await page.getByLabel('Clip lengths').selectOption({ label: 'Live short' });
    await page.getByLabel('Language').selectOption('en');
    await page.getByRole('button', { name: 'Create monitor' }).click();
    await page.getByRole('heading', { level: 1, name: 'Evening show' }).waitFor();
    const [monitor] = (await cutroom.monitors.list()).monitors;
    expect(monitor).toMatchObject({ name: 'Evening show', type: 'live', platform: 'hls', status: 'stopped', source_language: 'en', url: airing.url });
    expect(new URL(page.url()).pathname).toBe(`/monitors/${monitor.id}`);
    await expect(page.getByText('Never started.').isVisible()).resolves.toBe(true);
    // The billing rule next to Start and Stop (their description).
    const start = page.getByRole('button', { name: 'Start' });
    const rule = await page.locator(`#${await start.getAttribute('aria-describedby')}`).textContent();
    expect(rule).toMatch(/charged per batch .*only for batches that produced clips, and only while it is on/);
    await expect(page.getByRole('button', { name: 'Stop' }).isDisabled()).resolves.toBe(true);
    await checkStudioPage(page, 'monitor-stopped');

    await start.click();
    await page
      .getByText(/^(Watching for a broadcast|Recording)$/)
      .first()
      .waitFor();
    await expect(start.isDisabled()).resolves.toBe(true);
    // The page polls: the broadcast appears, then its first batch's clips as clip cards.
    const broadcast = page.getByRole('region', { name: /live\.m3u8/ });
    await broadcast.waitFor({ timeout: 60_000 });
    await broadcast.getByRole('heading', { level: 3, name: 'Batch 1' }).waitFor({ timeout: 60_000 });
    const firstEdit = broadcast.getByRole('link', { name: /^Edit / }).first();
    await firstEdit.waitFor({ timeout: 180_000 });
    const [bc] = (await cutroom.monitors.listBroadcasts(monitor.id)).broadcasts;
    const clips = (await cutroom.monitors.listBroadcastClips(monitor.id, bc.id, { sort: 'start_time', order: 'asc' })).clips;
    const first = clips.find((c) => c.batch_index === 0)!;
    expect(first).toBeDefined();
    const card = broadcast.getByRole('article', { name: first.title });
    await expect(card.getByText(/^Rating \d/).isVisible()).resolves.toBe(true);
    await expect(card.getByText(/^At \d+:\d\d of the broadcast$/).isVisible()).resolves.toBe(true);
    await expect(card.getByRole('button', { name: 'Keep' }).isVisible()).resolves.toBe(true);
    await expect(card.getByRole('link', { name: `Edit ${first.title}` }).getAttribute('href')).resolves.toBe(
      `/submissions/${first.video_id}/${first.submission_id}/clips/${first.id}`,
    );
    await checkStudioPage(page, 'monitor-live');

    // Stop: stopped by the user, nothing more recorded.
    await page.getByRole('button', { name: 'Stop' }).click();
    await page.getByText('Stopped by you.').waitFor();
    await expect(start.isDisabled()).resolves.toBe(false);
    expect(await cutroom.monitors.get(monitor.id)).toMatchObject({ status: 'stopped', stop_reason: 'USER' });

    // Keep on a live clip is the submission clip's review; Edit opens the same editor on it.
    await card.getByRole('button', { name: 'Keep' }).click();
    await expect.poll(() => card.getByRole('button', { name: 'Keep' }).getAttribute('aria-pressed')).toBe('true');
    await card.getByRole('link', { name: `Edit ${first.title}` }).click();
    await page.getByRole('heading', { level: 1, name: first.title }).waitFor();
    await expect(alert().count()).resolves.toBe(0);
    await page.goBack();
    await page.getByRole('heading', { level: 1, name: 'Evening show' }).waitFor();

    // The list shows it, stopped.
    await page.getByRole('link', { name: 'Monitors', exact: true }).first().click();
    await page.getByRole('heading', { level: 1, name: 'Monitors' }).waitFor();
    await page.getByRole('list', { name: 'Monitors, newest first' }).getByRole('link', { name: 'Evening show' }).waitFor();
    await checkStudioPage(page, 'monitors-list');
  }, 420_000);

  it('Monitors: a video monitor on a feed turns a new upload into a submission, linked to its page', async () => {
    await nav().getByRole('link', { name: 'Monitors' }).click();
    await page.getByRole('heading', { level: 1, name: 'Monitors' }).waitFor();
    await page.getByLabel('New uploads of the channel').check();
    await page.getByLabel('Channel link').fill(`${srv.url}/feed.xml`);
    await page.getByLabel('Name (optional)').fill('Talks feed');
    await page.getByRole('button', { name: 'Create monitor' }).click();
    await page.getByRole('heading', { level: 1, name: 'Talks feed' }).waitFor();
    await page.getByText(/^No upload clipped yet/).waitFor();
    const monitor = (await cutroom.monitors.list()).monitors.find((m) => m.name === 'Talks feed')!;
    expect(monitor).toMatchObject({ type: 'video', platform: 'feed' });
    const rule = page.locator(`#${await page.getByRole('button', { name: 'Start' }).getAttribute('aria-describedby')}`);
    await expect(rule.textContent()).resolves.toMatch(/^Each new upload after Start is clipped as an ordinary submission/);
    await page.getByRole('button', { name: 'Start' }).click();
    await page.getByText('Watching for uploads').waitFor();
    // The first check takes the feed as it is (old1) as the baseline; then a new entry appears.
    await expect.poll(async () => (await cutroom.monitors.get(monitor.id)).last_checked_at, { timeout: 30_000 }).not.toBeNull();
    fs.writeFileSync(path.join(dir, 'feed.xml'), rss(['new1', 'old1']));
    const link = page.getByRole('link', { name: /^Upload clipped / });
    await link.waitFor({ timeout: 60_000 });
    await expect(link.count()).resolves.toBe(1);
    const [sub] = (await cutroom.submissions.list({ monitor_id: monitor.id })).submissions;
    await expect(link.getAttribute('href')).resolves.toBe(`/submissions/${sub.video_id}/${sub.id}`);
    await checkStudioPage(page, 'monitor-uploads');
    await page.getByRole('button', { name: 'Stop' }).click();
    await page.getByText('Stopped by you.').waitFor();
    await link.click();
    await page.waitForURL(`${base}/submissions/${sub.video_id}/${sub.id}`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await expect(alert().count()).resolves.toBe(0);
  }, 180_000);

  it('Settings: the delivery log shows the broadcast.started the receiver got, signed; Delete removes the endpoint', async () => {
    const [got] = await receiver.waitFor(1, 60_000);
    const event = verifyWebhook(got.headers as Record<string, string>, got.body, secret);
    expect(event.type).toBe('broadcast.started');

    await nav().getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    await page.getByRole('link', { name: `Delivery log of ${receiver.url}` }).click();
    expect(new URL(page.url()).search).toBe(`?log=${endpointId}`);
    const log = page.getByRole('table');
    const row = log.getByRole('row').filter({ hasText: 'broadcast.started' });
    await row.getByText('Delivered', { exact: true }).waitFor({ timeout: 30_000 });
    await expect(row.getByText(/HTTP 204/).isVisible()).resolves.toBe(true);
    await checkStudioPage(page, 'settings-log');

    await page.getByRole('button', { name: `Delete ${receiver.url}` }).click();
    await page.getByRole('button', { name: 'Delete endpoint' }).click();
    await page.getByText('No endpoint yet.').waitFor();
    expect((await cutroom.webhooks.list()).webhooks).toEqual([]);
    expect(cspViolations).toEqual([]);
    expect(pageErrors).toEqual([]);
  }, 120_000);
});
