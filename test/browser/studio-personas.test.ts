import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { buildStudio, checkStudioPage, launchStudioBrowser, signIn } from '../helpers/studio-browser.js';
import { tempDir } from '../helpers/app.js';
import { facePhoto, talkingHeadVideo } from '../helpers/persona-fixtures.js';
import { runFfmpeg } from '../helpers/media-fixtures.js';
import { type Proc, startServe, stopServe } from '../helpers/process.js';
import { Cutroom } from '../../sdk/src/index.js';

/**
 * The Studio's Personas pages in a real browser (Debian's chromium driven by playwright-core) against
 * `cutroom serve` as a real process with its embedded persona engines: the catalog's trait chips with
 * the portrait's price, own-face photos (synthetic faces only: test/fixtures/faces) refused without the
 * adult confirmation and when not an image, a persona created from chips and its portrait, a note that
 * is not understood and one that is, a version restored and rated, a swap into a 3 s talking head with
 * its quote and the result playing, a preset favourited and used; every page at both sizes with axe-core.
 */

let dir: string;
let face: string;
let talk: string;
let server: Proc;
let base: string;
let key: string;
let browser: Browser;
let page: Page;
let cutroom: Cutroom;
let cspViolations: string[] = [];
let pageErrors: string[] = [];
let personaId: string;
let stopping = false;

beforeAll(async () => {
  dir = tempDir('cutroom-studio-personas-e2e-');
  buildStudio();
  face = await facePhoto(path.join(dir, 'me.png'), { n: 42 });
  talk = await talkingHeadVideo(path.join(dir, 'talk.mp4'), { seconds: 3 });
  // Text bytes behind an image's name: the service reads the bytes and refuses them.
  fs.writeFileSync(path.join(dir, 'notes.png'), 'not a picture, only some text');
  ({ server, base, key } = await startServe(dir));
  // A service that stops on its own leaves its last words in the test's output.
  void server.exited.then((code) => {
    if (!stopping) console.error(`cutroom serve exited (${code}) during the test:\n${server.output().slice(-6000)}`);
  });
  cutroom = new Cutroom({ baseUrl: base, apiKey: key });
  ({ browser, page, cspViolations, pageErrors } = await launchStudioBrowser(['--autoplay-policy=no-user-gesture-required']));
  await signIn(page, base, key);
}, 300_000);

afterAll(async () => {
  stopping = true;
  await browser?.close();
  await stopServe(server);
  fs.rmSync(dir, { recursive: true, force: true });
});

const check = (name: string) => checkStudioPage(page, name);
const nav = () => page.getByRole('navigation', { name: 'Main' });
const balance = async () => (await cutroom.balance.get()).balance;
const creditsText = (n: number) => `${n} credit${n === 1 ? '' : 's'}`;
const alertText = async () => {
  const alert = page.getByRole('alert');
  await alert.waitFor({ timeout: 30_000 });
  const words = (await alert.textContent()) ?? '';
  expect(words).not.toMatch(/object Object|Error:|at /);
  return words;
};

describe('Studio: Personas in a browser', () => {
  it('the Personas link sits between Transcriptions and Generations; the catalog’s trait chips with the portrait’s price', async () => {
    const links = await nav().getByRole('link').allTextContents();
    expect(links.indexOf('Personas')).toBeGreaterThan(links.indexOf('Transcriptions'));
    expect(links.indexOf('Personas')).toBe(links.indexOf('Generations') - 1);
    await nav().getByRole('link', { name: 'Personas' }).click();
    await page.waitForURL(`${base}/personas`);
    await page.getByRole('heading', { level: 1, name: 'Personas' }).waitFor();
    await expect(nav().getByRole('link', { name: 'Personas' }).getAttribute('aria-current')).resolves.toBe('page');

    const catalog = await cutroom.personas.getCatalog();
    // One group of chips per trait, one radio per option, the catalog's default chosen.
    for (const [trait, t] of Object.entries(catalog.traits)) {
      const name = trait.charAt(0).toUpperCase() + trait.slice(1).replace(/_/g, ' ');
      const group = page.getByRole('group', { name, exact: true });
      await expect(group.getByRole('radio').count(), trait).resolves.toBe(t.options.length);
      const chosen = t.options.find((o) => o.id === t.default)!;
      await expect(group.getByRole('radio', { name: chosen.label, exact: true }).isChecked(), trait).resolves.toBe(true);
    }
    const price = page.locator('#persona-price');
    await expect(price.textContent()).resolves.toBe(`Price: ${creditsText(catalog.prices.image)} for the portrait. Balance: ${creditsText(await balance())}.`);
    await expect(page.getByRole('button', { name: `Create persona for ${creditsText(catalog.prices.image)}` }).isEnabled()).resolves.toBe(true);
    await page.getByText('No personas yet').waitFor();
    await page.getByRole('heading', { name: 'Presets' }).waitFor();
    await check('personas');
  }, 60_000);

  it('Face photo: refused in words without the adult confirmation and when it is not an image; with both, one face is found', async () => {
    const photo = page.getByLabel('Face photo');
    await photo.setInputFiles(face);
    await page.getByRole('button', { name: 'Add face photo' }).click();
    await expect(alertText()).resolves.toMatch(/^Tick “This is my own face and I am 18 or older” first: .*Nothing was uploaded\.$/);
    await check('personas-face-unconfirmed');

    // Confirmed, but a text file behind a .png name: the service's refusal, in words.
    await page.getByLabel('This is my own face and I am 18 or older').check();
    await photo.setInputFiles(path.join(dir, 'notes.png'));
    await page.getByRole('button', { name: 'Add face photo' }).click();
    await expect(alertText()).resolves.toBe('The file is not a PNG, JPEG or WebP image. (UNSUPPORTED_IMAGE)');

    await photo.setInputFiles(face);
    await page.getByRole('button', { name: 'Add face photo' }).click();
    const added = page.getByRole('list', { name: 'Face photos added' });
    await added.getByText(/^me\.png: one face found \(\d+ % sure\)$/).waitFor({ timeout: 60_000 });
    await expect(page.getByRole('alert').count()).resolves.toBe(0);
    // With a face photo only the catalog's face_photo_groups still apply: the other traits are off.
    const catalog = await cutroom.personas.getCatalog();
    expect(catalog.face_photo_groups).toEqual(['vibe']);
    await expect(page.getByRole('group', { name: 'Hair color', exact: true }).getByRole('radio').first().isDisabled()).resolves.toBe(true);
    await expect(page.getByRole('group', { name: 'Vibe', exact: true }).getByRole('radio').first().isDisabled()).resolves.toBe(false);
    await check('personas-face');
    await page.getByRole('button', { name: 'Remove me.png' }).click();
    await expect(page.getByRole('group', { name: 'Hair color', exact: true }).getByRole('radio').first().isDisabled()).resolves.toBe(false);
  }, 120_000);

  it('a persona from trait chips at the price shown; its portrait appears', async () => {
    const catalog = await cutroom.personas.getCatalog();
    // Chips chosen by keyboard and by click.
    await page.getByRole('group', { name: 'Hair color', exact: true }).getByRole('radio', { name: 'Red', exact: true }).check();
    const vibe = page.getByRole('group', { name: 'Vibe', exact: true });
    await vibe.getByRole('radio', { checked: true }).focus();
    await page.keyboard.press('ArrowRight');
    const vibeChosen = catalog.traits.vibe.options[1];
    await expect(vibe.getByRole('radio', { name: vibeChosen.label, exact: true }).isChecked()).resolves.toBe(true);
    const before = await balance();
    await page.getByRole('button', { name: `Create persona for ${creditsText(catalog.prices.image)}` }).click();
    await page.waitForURL(/\/personas\/prs_\w+$/);
    personaId = new URL(page.url()).pathname.split('/').pop()!;
    await page.getByRole('heading', { level: 1, name: 'Unsaved persona' }).waitFor();
    // A persona is under Personas in the navigation.
    await expect(nav().getByRole('link', { name: 'Personas' }).getAttribute('aria-current')).resolves.toBe('true');
    expect(await balance()).toBe(before - catalog.prices.image);
    const made = await cutroom.personas.get(personaId);
    expect(made.chips).toMatchObject({ hair_color: 'red', vibe: vibeChosen.id });
    // The portrait appears (polled every 5 s) and is a real picture.
    const portrait = page.getByRole('img', { name: 'Portrait of the unsaved persona, the current version' });
    await portrait.waitFor({ timeout: 60_000 });
    await page.waitForFunction((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0, await portrait.elementHandle());
    await expect(page.getByRole('status').filter({ hasText: 'An illustrated portrait, version 1 of 1.' }).count()).resolves.toBe(1);
    await check('persona');
  }, 120_000);

  it('a note it cannot read is refused in words; a name is saved; a note makes version 2; version 1 is restored and rated', async () => {
    await page.getByRole('textbox', { name: 'Name' }).fill('Rosa');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Rosa' }).waitFor();
    expect((await cutroom.personas.get(personaId)).name).toBe('Rosa');

    const before = await balance();
    await page.getByLabel('Note').fill('more mysterious please');
    await page.getByRole('button', { name: 'Regenerate' }).click();
    await expect(alertText()).resolves.toMatch(/^The note names none of the traits this engine reads \(.*\); nothing was charged\. \(NOTE_NOT_UNDERSTOOD\)$/);
    expect(await balance()).toBe(before);
    await check('persona-note-refused');

    const price = (await cutroom.personas.getCatalog()).prices.image;
    await expect(page.locator('#note-price').textContent()).resolves.toMatch(new RegExp(`^Price: ${creditsText(price)} for the portrait\\.`));
    await page.getByLabel('Note').fill('blonde hair, no glasses');
    await page.getByRole('button', { name: 'Regenerate' }).click();
    const v2 = page.getByRole('article', { name: /^Version 2/ });
    await v2.waitFor({ timeout: 60_000 });
    await v2.getByText('Current').waitFor();
    expect(await balance()).toBe(before - price);
    let p = await cutroom.personas.get(personaId);
    expect(p.versions).toHaveLength(2);
    expect(p.current_version_id).toBe(p.versions[1].id);
    expect(p.chips.hair_color).toBe('blonde');

    // Restore version 1 (free): it becomes the current one.
    const v1 = page.getByRole('article', { name: /^Version 1/ });
    await v1.getByRole('button', { name: 'Restore' }).click();
    await v1.getByText('Current').waitFor();
    p = await cutroom.personas.get(personaId);
    expect(p.current_version_id).toBe(p.versions[0].id);
    expect(await balance()).toBe(before - price);
    await expect(v2.getByRole('button', { name: 'Restore' }).count()).resolves.toBe(1);

    // Thumbs up on version 1 (aria-pressed); thumbs down on version 2 asks why, then sends it.
    const up = v1.getByRole('button', { name: 'Thumbs up' });
    await expect(up.getAttribute('aria-pressed')).resolves.toBe('false');
    await up.click();
    await page.waitForFunction((el) => el?.getAttribute('aria-pressed') === 'true', await up.elementHandle());
    await v2.getByRole('button', { name: 'Thumbs down' }).click();
    await v2.getByLabel('What is wrong?').fill('the hair is too yellow');
    await v2.getByLabel('What is wrong?').press('Enter');
    await page.waitForFunction((el) => el?.getAttribute('aria-pressed') === 'true', await v2.getByRole('button', { name: 'Thumbs down' }).elementHandle());
    p = await cutroom.personas.get(personaId);
    expect(p.versions[0].feedback).toMatchObject({ vote: 'up' });
    expect(p.versions[1].feedback).toMatchObject({ vote: 'down', reason: 'the hair is too yellow' });
    await check('persona-versions');
  }, 180_000);

  it('a swap: a 3 s video uploaded, its quote, confirmed at that price, the result playing', async () => {
    // The library: this workspace has clipped nothing yet.
    await page.getByRole('radio', { name: 'A library video' }).check();
    await expect(page.getByLabel('Library video', { exact: true }).textContent()).resolves.toContain('No library videos yet');
    await page.getByRole('radio', { name: 'Upload a video' }).check();

    await page.getByLabel('Source video').setInputFiles(talk);
    await page.getByText(/^talk\.mp4 is uploaded \(3\.\d s\)\.$/).waitFor({ timeout: 60_000 });
    const price = page.locator('#swap-price');
    await page.waitForFunction(() => document.querySelector('#swap-price')?.textContent?.startsWith('Price:'));
    const p = await cutroom.personas.get(personaId);
    const { videos: none } = await cutroom.personas.listVideos(personaId);
    expect(none).toEqual([]);
    const text = (await price.textContent())!;
    const credits = Number(/^Price: (\d+) credits? for (3\.\d) s at standard quality\./.exec(text)?.[1]);
    expect(credits).toBeGreaterThan(0);
    await check('persona-swap-quoted');

    const before = await balance();
    await page.getByRole('button', { name: `Make the video for ${creditsText(credits)}` }).click();
    await page.getByText(`Started for ${creditsText(credits)}`).waitFor();
    expect(await balance()).toBe(before - credits);
    const [started] = (await cutroom.personas.listVideos(personaId)).videos;
    expect(started).toMatchObject({ credits_charged: credits, quality: 'standard', replace: 'head', version_id: p.current_version_id });

    // The result (polled every 10 s) plays in the page.
    const video = page.locator('video');
    await video.waitFor({ timeout: 180_000 });
    const ready = await cutroom.personas.getVideo(personaId, started.id);
    expect(ready.status).toBe('ready');
    // The persona video's file (its signed address is made again at each answer: the same path).
    expect(new URL((await video.getAttribute('src'))!).pathname).toBe(new URL(ready.download_url!).pathname);
    await video.evaluate((v: HTMLVideoElement) => v.play());
    await page.waitForFunction((v) => (v as HTMLVideoElement).currentTime > 0.5, await video.elementHandle(), { timeout: 20_000 });
    await video.evaluate((v: HTMLVideoElement) => v.pause());
    expect(await video.evaluate((v: HTMLVideoElement) => v.duration)).toBeCloseTo(ready.seconds, 0);
    await check('persona-swap');
  }, 300_000);

  it('presets: one favourited (aria-pressed, kept after a reload), one used for free', async () => {
    await page.getByRole('link', { name: 'All personas' }).click();
    await page.getByRole('heading', { level: 1, name: 'Personas' }).waitFor();
    const { presets } = await cutroom.personas.listPresets();
    const [first, second] = presets;
    const card = page.getByRole('article', { name: first.name });
    const fav = card.getByRole('button', { name: 'Favourite' });
    await expect(fav.getAttribute('aria-pressed')).resolves.toBe('false');
    await fav.click();
    await page.waitForFunction((el) => el?.getAttribute('aria-pressed') === 'true', await fav.elementHandle());
    expect((await cutroom.personas.listPresets()).presets.find((x) => x.id === first.id)?.favorite).toBe(true);
    await page.reload();
    await expect(
      page
        .getByRole('article', { name: new RegExp(`^${first.name}`) })
        .getByRole('button', { name: 'Favourite' })
        .getAttribute('aria-pressed'),
    ).resolves.toBe('true');
    // The list shows the persona made above.
    await page.getByRole('link', { name: 'Rosa' }).waitFor();
    await check('personas-list');

    const before = await balance();
    await page
      .getByRole('article', { name: new RegExp(`^${second.name}`) })
      .getByRole('button', { name: 'Use this preset' })
      .click();
    await page.waitForURL(/\/personas\/prs_\w+$/);
    const id = new URL(page.url()).pathname.split('/').pop()!;
    expect(id).not.toBe(personaId);
    expect((await cutroom.personas.get(id)).preset_id).toBe(second.id);
    await page.getByRole('img', { name: /^Portrait of / }).waitFor({ timeout: 60_000 });
    expect(await balance()).toBe(before);
  }, 120_000);

  it('a library video: the workspace’s clipped videos are offered; one of a minute is refused in words (a swap takes up to 15 s)', async () => {
    // A library video: uploaded and submitted for clipping over the API (its clipping need not finish).
    const minute = path.join(dir, 'minute.mp4');
    await runFfmpeg([
      '-y',
      '-f',
      'lavfi',
      '-i',
      'testsrc2=size=160x90:rate=5',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=440:sample_rate=16000',
      '-t',
      '61',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'aac',
      '-shortest',
      minute,
    ]);
    const uploaded = await cutroom.uploadVideo(minute);
    const submission = await cutroom.clips.create({ video_id: uploaded.id });
    await page.goto(`${base}/personas/${personaId}`);
    await page.getByRole('heading', { level: 1, name: 'Rosa' }).waitFor();
    await page.getByRole('radio', { name: 'A library video' }).check();
    const library = page.getByLabel('Library video', { exact: true });
    await library.locator(`option[value="${submission.video_id}"]`).waitFor({ state: 'attached' });
    await expect(library.locator('option').allTextContents()).resolves.toEqual(['Choose a video', expect.stringMatching(/^Video of /)]);
    await library.selectOption(submission.video_id);
    await expect(alertText()).resolves.toMatch(/^The video is too long \(1 min 1 s\): the most allowed here is 15 s\. \(VIDEO_TOO_LONG\)$/);
    await expect(page.getByRole('button', { name: 'Make the video' }).isDisabled()).resolves.toBe(true);
    await check('persona-swap-library');
    expect(cspViolations).toEqual([]);
    expect(pageErrors).toEqual([]);
  }, 120_000);
});
