import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { SHOTS, SIZES, buildStudio, checkStudioPage, expectAccessible, launchStudioBrowser, signIn } from '../helpers/studio-browser.js';
import { tempDir } from '../helpers/app.js';
import { VOICES, makeSpeechWav } from '../helpers/speech-fixtures.js';
import { type Proc, startServe, stopServe } from '../helpers/process.js';
import { Cutroom, ok } from '../../sdk/src/index.js';

/**
 * The Studio's navigation, Transcriptions and Generations pages in a real browser (Debian's chromium
 * driven by playwright-core) against `cutroom serve` as a real process with its embedded engines: the
 * Menu button on a phone, a transcription from upload to transcript and downloads, an image generated
 * from a reference then animated into a video, each refusal in words; every page at 1440x900 and
 * 390x844 with axe-core, screenshots in test-results/studio/.
 */

let dir: string;
let speech: string;
let speechSeconds: number;
let picture: string;
let server: Proc;
let base: string;
let key: string;
let browser: Browser;
let page: Page;
let cutroom: Cutroom;
let cspViolations: string[] = [];
let pageErrors: string[] = [];

beforeAll(async () => {
  dir = tempDir('cutroom-studio-tools-e2e-');
  buildStudio();
  // Two voices taking turns, about 14 s: short to transcribe, two speakers to label.
  const made = await makeSpeechWav(path.join(dir, 'interview.wav'), [
    { silence: 0.5 },
    { say: 'hello and welcome back to the show', ...VOICES.male },
    { silence: 1.2 },
    { say: 'today we need to talk about the money and the time we have left', ...VOICES.female },
    { silence: 1.2 },
    { say: 'what do you want to do today', ...VOICES.male },
    { silence: 1.2 },
    { say: 'thank you very much for watching', ...VOICES.female },
    { silence: 0.8 },
  ]);
  speech = made.path;
  speechSeconds = made.duration;
  // Text bytes behind an accepted extension: the service reads the bytes and refuses them.
  fs.writeFileSync(path.join(dir, 'notes.wav'), 'not a sound, only some text');
  fs.writeFileSync(path.join(dir, 'notes.png'), 'not a picture, only some text');
  picture = path.join(dir, 'pattern.png');
  execFileSync('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=160x120', '-frames:v', '1', '-y', picture]);
  ({ server, base, key } = await startServe(dir));
  cutroom = new Cutroom({ baseUrl: base, apiKey: key });
  ({ browser, page, cspViolations, pageErrors } = await launchStudioBrowser(['--autoplay-policy=no-user-gesture-required']));
  await signIn(page, base, key);
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await stopServe(server);
  fs.rmSync(dir, { recursive: true, force: true });
});

const axe = (name: string) => expectAccessible(page, name);

/** The page at both sizes: fits the window, axe, a screenshot of each (test/helpers/studio-browser.ts). */
const check = (name: string) => checkStudioPage(page, name);

const nav = () => page.getByRole('navigation', { name: 'Main' });
const focusedText = () => page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');

/** Tabs forward until the focused element's text is `text` (at most `max` presses): keyboard reachability. */
async function tabTo(text: string | RegExp, max = 40): Promise<void> {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    const now = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      if (!el) return '';
      const label = el.id ? document.querySelector(`label[for="${el.id}"]`)?.textContent : null;
      return (label ?? el.closest('label')?.textContent ?? el.textContent ?? '').trim();
    });
    if (typeof text === 'string' ? now === text : text.test(now)) return;
  }
  throw new Error(`${String(text)} is not reached by Tab`);
}

let transcriptionId: string;

describe('Studio: navigation, Transcriptions and Generations in a browser', () => {
  it('the navigation: every page’s link on a wide screen; on a phone behind Menu (aria-expanded, keyboard, Escape closes)', async () => {
    // This file's pages in their order; the other pages' links sit between them (their own tests place them).
    const links = ['Home', 'New clips', 'Transcriptions', 'Generations', 'Credits'];
    expect((await nav().getByRole('link').allTextContents()).filter((l) => links.includes(l))).toEqual(links);
    await expect(nav().getByRole('button', { name: 'Menu' }).isVisible()).resolves.toBe(false);

    await page.setViewportSize(SIZES.phone);
    const menu = nav().getByRole('button', { name: 'Menu' });
    await expect(menu.isVisible()).resolves.toBe(true);
    await expect(nav().getByRole('link', { name: 'Transcriptions' }).isVisible()).resolves.toBe(false);
    await expect(menu.getAttribute('aria-expanded')).resolves.toBe('false');
    // Keyboard: Enter opens it, Escape closes it and leaves the focus on the button.
    await menu.focus();
    await page.keyboard.press('Enter');
    await expect(menu.getAttribute('aria-expanded')).resolves.toBe('true');
    for (const name of links) await expect(nav().getByRole('link', { name }).isVisible(), name).resolves.toBe(true);
    await page.screenshot({ path: path.join(SHOTS, 'menu-open-phone.png') });
    await axe('menu open phone');
    await page.keyboard.press('Escape');
    await expect(menu.getAttribute('aria-expanded')).resolves.toBe('false');
    await expect(nav().getByRole('link', { name: 'Transcriptions' }).isVisible()).resolves.toBe(false);
    await expect(page.evaluate(() => document.activeElement?.textContent?.trim())).resolves.toBe('Menu');
    // Open again by keyboard, Tab to a link, follow it: the menu closes and focus lands on the page's heading.
    await page.keyboard.press('Space');
    await tabTo('Transcriptions', 12);
    await expect(focusedText()).resolves.toBe('Transcriptions');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${base}/transcriptions`);
    await page.waitForFunction(() => document.activeElement?.tagName === 'H1' && document.activeElement.textContent === 'Transcriptions');
    await expect(menu.getAttribute('aria-expanded')).resolves.toBe('false');
    await expect(nav().getByRole('link', { name: 'Transcriptions' }).isVisible()).resolves.toBe(false);
    await page.setViewportSize(SIZES.desktop);
    await expect(nav().getByRole('link', { name: 'Transcriptions' }).getAttribute('aria-current')).resolves.toBe('page');
  }, 60_000);

  it('Transcriptions: a file that is not media is refused in words, under Transcribe', async () => {
    await page.getByRole('heading', { name: 'Past transcriptions' }).waitFor();
    await page.getByText('Nothing transcribed yet.').waitFor();
    await check('transcriptions-empty');
    await page.getByLabel('Media file').setInputFiles(path.join(dir, 'notes.wav'));
    await page.getByText('notes.wav is uploaded').waitFor();
    await page.getByRole('button', { name: 'Transcribe' }).click();
    const refusal = page.locator('#transcribe-error');
    await refusal.waitFor({ timeout: 30_000 });
    const words = await refusal.textContent();
    expect(words).toMatch(/^The file could not be read .*\(VALIDATION_ERROR\)$/);
    expect(words).not.toMatch(/object Object|Error:|at /);
    await check('transcriptions-error');
  }, 60_000);

  it('Transcriptions: Media file uploads with progress in percent, the price (an estimate) follows Speaker labels, Transcribe shows the progress, then the transcript with speakers', async () => {
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Transcriptions' }).waitFor();
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { __progress: string[] }).__progress = seen;
      new MutationObserver(() => {
        const label = document.querySelector('label[for="media-progress"]');
        if (label?.textContent) seen.push(label.textContent);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await page.getByLabel('Media file').setInputFiles(speech);
    await page.getByText('interview.wav is uploaded').waitFor({ timeout: 30_000 });
    const progress = await page.evaluate(() => (window as unknown as { __progress: string[] }).__progress);
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.every((p) => /^Uploading interview\.wav: \d{1,3} %$/.test(p))).toBe(true);

    // The plan's prices (GET /transcriptions/prices) × the started minutes the browser measured.
    const prices = await ok(cutroom.api.GET('/api/v1/transcriptions/prices'));
    expect(speechSeconds).toBeLessThan(60);
    const quote = page.locator('#transcription-price');
    await expect(quote.textContent()).resolves.toMatch(new RegExp(`^Estimate: ${prices.per_minute} credits? for 0:1\\d \\(`));
    // Keyboard: Tab from the language to the checkbox, Space ticks it; the estimate adds the surcharge.
    await expect(page.getByLabel('Number of speakers').count()).resolves.toBe(0);
    await page.getByLabel('Language').focus();
    await tabTo('Speaker labels');
    await page.keyboard.press('Space');
    await expect(page.getByLabel('Speaker labels').isChecked()).resolves.toBe(true);
    const withLabels = prices.per_minute + prices.speaker_labels_per_minute;
    await expect(quote.textContent()).resolves.toMatch(new RegExp(`^Estimate: ${withLabels} credits? for .*speaker labels included`));
    await page.getByLabel('Language').selectOption('en');
    // Number of speakers, only with Speaker labels: 1 to 10 (speakers_expected); outside it, refused in words before anything is sent.
    await page.getByLabel('Number of speakers').fill('11');
    await page.getByRole('button', { name: 'Transcribe' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toBe(
      'Number of speakers: a whole number from 1 to 10, or empty to let the service count them.',
    );
    expect(new URL(page.url()).pathname).toBe('/transcriptions');
    await page.getByLabel('Number of speakers').fill('2');
    await check('transcriptions-ready-to-start');
    const before = (await ok(cutroom.api.GET('/api/v1/balance'))).balance;

    await tabTo('Transcribe');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/transcriptions\/trn_\w+$/);
    transcriptionId = new URL(page.url()).pathname.split('/').pop()!;
    await page.getByRole('heading', { level: 1, name: 'interview.wav' }).waitFor();
    const created = await ok(cutroom.api.GET('/api/v1/transcriptions/{transcriptionId}', { params: { path: { transcriptionId } } }));
    expect(created).toMatchObject({ speaker_labels: true, speakers_expected: 2, source_language: 'en', file_name: 'interview.wav' });
    // The price quoted is what was charged.
    expect((await ok(cutroom.api.GET('/api/v1/balance'))).balance).toBe(before - withLabels);
    if (created.status === 'processing') {
      // While it runs: the step, the percent; it updates without a reload.
      const status = page.getByRole('status').filter({ has: page.getByRole('progressbar') });
      if (await status.count()) await check('transcription-running');
    }
    await page.getByRole('heading', { name: 'Transcript' }).waitFor({ timeout: 120_000 });
    const transcript = await ok(cutroom.api.GET('/api/v1/transcriptions/{transcriptionId}/transcript', { params: { path: { transcriptionId } } }));
    expect(transcript.cues.length).toBeGreaterThan(1);
    const lines = page.getByRole('list', { name: /^Lines of the transcript/ }).getByRole('listitem');
    await expect(lines.count()).resolves.toBe(transcript.cues.length);
    const speakers = new Set(transcript.cues.map((c) => c.speaker));
    expect(speakers.size).toBe(2);
    await expect(page.getByText('Yes, 2 speakers').isVisible()).resolves.toBe(true);
    const first = (await lines.first().textContent())!;
    expect(first).toContain(`Speaker ${transcript.cues[0].speaker}`);
    expect(first).toContain(transcript.cues[0].text.replace(/\n/g, ' '));
    expect(first.startsWith('0:0')).toBe(true);
    await check('transcription');
  }, 240_000);

  it('the transcript: clicking a line plays the media from there; Download SRT, VTT and TXT, with or without speaker names', async () => {
    const transcript = await ok(cutroom.api.GET('/api/v1/transcriptions/{transcriptionId}/transcript', { params: { path: { transcriptionId } } }));
    const audio = page.locator('audio');
    await expect(audio.count()).resolves.toBe(1);
    const cue = transcript.cues[transcript.cues.length - 1];
    const line = page.getByRole('button', { name: new RegExp(cue.text.split('\n')[0].slice(0, 20)) });
    await line.click();
    // Played from the line's start: the time is at or after it, and moves on.
    await page.waitForFunction(
      ([el, start]) => !(el as HTMLMediaElement).paused && (el as HTMLMediaElement).currentTime > (start as number) + 0.2,
      [await audio.elementHandle(), cue.start] as const,
      { timeout: 20_000 },
    );
    const at = await audio.evaluate((a: HTMLAudioElement) => a.currentTime);
    expect(at).toBeGreaterThanOrEqual(cue.start);
    expect(at).toBeLessThan(cue.end + 2);
    await audio.evaluate((a: HTMLAudioElement) => a.pause());
    await expect(line.getAttribute('aria-current')).resolves.toBe('time');

    const save = async (name: string) => {
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name }).click()]);
      const file = path.join(dir, download.suggestedFilename());
      await download.saveAs(file);
      return { name: download.suggestedFilename(), text: fs.readFileSync(file, 'utf8') };
    };
    const srt = await save('Download SRT');
    expect(srt.name).toBe('interview.srt');
    expect(srt.text).toMatch(/^1\n00:00:0\d,\d{3} --> 00:00:\d\d,\d{3}\n[AB]: /);
    const vtt = await save('Download VTT');
    expect(vtt.name).toBe('interview.vtt');
    expect(vtt.text.startsWith('WEBVTT')).toBe(true);
    expect(vtt.text).toContain('<v A>');
    // Without speaker names: the same text, no names.
    await page.getByLabel('With speaker names').uncheck();
    const txt = await save('Download TXT');
    expect(txt.name).toBe('interview.txt');
    expect(txt.text).not.toMatch(/^[AB]: /m);
    expect(txt.text.replace(/\s+/g, ' ').trim()).toBe(transcript.text);
    await check('transcription-downloads');
  }, 120_000);

  it('the list of past transcriptions, newest first, each opening its transcript; the file chosen again plays along after a reload', async () => {
    await page.getByRole('link', { name: 'All transcriptions' }).click();
    await page.getByRole('heading', { level: 1, name: 'Transcriptions' }).waitFor();
    const list = page.getByRole('list', { name: 'Transcriptions, newest first' });
    await list.waitFor();
    const { transcriptions } = await ok(cutroom.api.GET('/api/v1/transcriptions'));
    await expect(list.getByRole('link').allTextContents()).resolves.toEqual(transcriptions.map((t) => t.file_name));
    expect(transcriptions[0].id).toBe(transcriptionId);
    await check('transcriptions');
    await list.getByRole('link', { name: 'interview.wav' }).click();
    await page.waitForURL(`${base}/transcriptions/${transcriptionId}`);
    // After a reload the tab no longer holds the file: the page asks for the person's copy.
    await page.reload();
    await page.getByRole('heading', { name: 'Transcript' }).waitFor();
    await expect(page.locator('audio').count()).resolves.toBe(0);
    await page.getByLabel('Your copy of interview.wav').setInputFiles(speech);
    await page.locator('audio').waitFor();
    await check('transcription-own-copy');
  }, 60_000);

  it('Delete, asked once more, removes a transcription from the list (the API then answers TRANSCRIPTION_NOT_FOUND)', async () => {
    await page.getByRole('button', { name: 'Delete…' }).click();
    await page.getByRole('group', { name: 'Delete interview.wav?' }).waitFor();
    // Keep it changes nothing.
    await page.getByRole('button', { name: 'Keep it' }).click();
    await page.getByRole('button', { name: 'Delete…' }).click();
    await check('transcription-delete');
    await page.getByRole('button', { name: 'Delete transcription' }).click();
    await page.waitForURL(`${base}/transcriptions`);
    await page.getByRole('heading', { level: 1, name: 'Transcriptions' }).waitFor();
    const { transcriptions } = await ok(cutroom.api.GET('/api/v1/transcriptions'));
    expect(transcriptions.map((t) => t.id)).not.toContain(transcriptionId);
    await expect.poll(() => page.getByRole('link', { name: 'interview.wav' }).count()).toBe(0);
    await expect(cutroom.transcriptions.get(transcriptionId)).rejects.toMatchObject({ status: 404, code: 'TRANSCRIPTION_NOT_FOUND' });
  }, 60_000);

  it('Generations: the catalog with prices and options, a refused image in words, a reference upload, Generate at the price shown, the result in the gallery', async () => {
    await nav().getByRole('link', { name: 'Generations' }).click();
    await page.getByRole('heading', { level: 1, name: 'Generations' }).waitFor();
    const { models } = await ok(cutroom.api.GET('/api/v1/generations/models', { params: { query: { limit: 100 } } }));
    const choices = page.getByRole('group', { name: 'Model' }).getByRole('radio');
    await expect(choices.count()).resolves.toBe(models.length);
    const upscale = models.find((m) => m.id === 'upscale-x4')!;
    const motion = models.find((m) => m.id === 'camera-motion')!;
    expect('per_image' in upscale.price).toBe(true);
    // Each model with its price in words.
    const chooser = page.getByRole('group', { name: 'Model' });
    await expect(chooser.textContent()).resolves.toContain(`${upscale.name}Image${(upscale.price as { per_image: number }).per_image} credits an image`);
    await page.getByText('Nothing generated yet.').waitFor();
    await check('generations-empty');

    // A video model: its options as fields, the price following the duration.
    await page.getByRole('radio', { name: new RegExp(`^${motion.name}`) }).check();
    for (const name of Object.keys(motion.options)) {
      const label = name.replace(/_/g, ' ');
      await expect(page.getByLabel(new RegExp(`^${label}`, 'i')).count(), name).resolves.toBe(1);
    }
    await page.getByLabel(/^Duration/).fill('3');
    const perSecond = (motion.price as { per_second: number }).per_second;
    await expect(page.locator('#generation-price').textContent()).resolves.toMatch(new RegExp(`^Price: ${3 * perSecond} credits`));

    await page.getByRole('radio', { name: new RegExp(`^${upscale.name}`) }).check();
    await page.getByLabel('Reference image').setInputFiles(path.join(dir, 'notes.png'));
    const refused = page.getByRole('alert');
    await refused.waitFor();
    await expect(refused.textContent()).resolves.toBe('The file is not a PNG, JPEG or WebP image. (UNSUPPORTED_IMAGE)');
    await check('generations-refused-image');

    await page.getByLabel('Reference image').setInputFiles(picture);
    await page.getByRole('img', { name: 'Reference: pattern.png' }).waitFor();
    await expect(page.getByRole('alert').count()).resolves.toBe(0);
    const price = (upscale.price as { per_image: number }).per_image;
    await expect(page.locator('#generation-price').textContent()).resolves.toMatch(new RegExp(`^Price: ${price} credits?`));
    await check('generations-ready');
    const before = (await ok(cutroom.api.GET('/api/v1/balance'))).balance;
    // Generate by keyboard.
    await page.getByRole('button', { name: 'Remove pattern.png' }).focus();
    await tabTo('Generate');
    await page.keyboard.press('Enter');
    await page.getByText(/^Started: /).waitFor();
    expect((await ok(cutroom.api.GET('/api/v1/balance'))).balance).toBe(before - price);
    const result = page.getByRole('img', { name: new RegExp(`^${upscale.name} result`) });
    await result.waitFor({ timeout: 120_000 });
    await page.waitForFunction((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth === 640, await result.elementHandle());
    await check('generations-image');
  }, 240_000);

  it('Animate on a ready image starts an image-to-video generation with its image_ids, shown as a video', async () => {
    const { generations } = await ok(cutroom.api.GET('/api/v1/generations'));
    const image = generations.find((g) => g.kind === 'image' && g.status === 'ready')!;
    const card = page.getByRole('article').filter({ has: page.getByRole('img', { name: /result/ }) });
    await card.getByRole('button', { name: 'Animate' }).click();
    await page.waitForFunction(() => document.activeElement?.textContent === 'New generation');
    const chosen = page.getByRole('group', { name: 'Model' }).getByRole('radio', { checked: true });
    const { models } = await ok(cutroom.api.GET('/api/v1/generations/models', { params: { query: { limit: 100 } } }));
    const video = models.find((m) => m.kind === 'video' && m.inputs.image_ids.max >= 1)!;
    await expect(chosen.getAttribute('value')).resolves.toBe(video.id);
    await page.getByRole('img', { name: /^Reference: / }).waitFor();
    await page.getByLabel(/^Duration/).fill('2');
    if (video.options.resolution) await page.getByLabel('Resolution', { exact: true }).selectOption('360p');
    await page.getByRole('button', { name: 'Generate' }).click();
    await page.getByText(/^Started: /).waitFor();
    const clip = page.locator('article video');
    await clip.waitFor({ timeout: 180_000 });
    const { generations: after } = await ok(cutroom.api.GET('/api/v1/generations'));
    expect(after[0]).toMatchObject({ model_id: video.id, kind: 'video', image_ids: [image.output!.image_id] });
    // The same file (each GET signs its URL anew).
    expect(new URL((await clip.getAttribute('src'))!).pathname).toBe(new URL(after[0].output!.url).pathname);
    await check('generations');
  }, 240_000);

  it('the pages had no CSP violation and no script error', () => {
    expect(cspViolations).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
