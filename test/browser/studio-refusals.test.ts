import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { buildStudio, checkStudioPage, launchStudioBrowser, signIn } from '../helpers/studio-browser.js';
import { tempDir } from '../helpers/app.js';
import { VOICES, makeSpeechWav } from '../helpers/speech-fixtures.js';
import { type Proc, startServe, stopServe } from '../helpers/process.js';
import { Cutroom, ok } from '../../sdk/src/index.js';

/**
 * The Studio's refusals of a start that would charge, in a real browser against `cutroom serve`: too
 * little credit (402 INSUFFICIENT_CREDITS) on Transcriptions and on Generations (with the operator's
 * top-up link), and a price changed by the operator while the Generations page was open (409
 * PRICE_CHANGED) then agreed to with one click. The balance is set and the plan's discount changed
 * through the admin API. Nothing is charged by a refusal; no stack or `[object Object]` on the page.
 */

const ADMIN_TOKEN = 'refusals-e2e-admin-token-0123456789abcdef';
const TOP_UP_URL = 'https://billing.example.com/top-up';

let dir: string;
let speech: string;
let picture: string;
let server: Proc;
let base: string;
let key: string;
let browser: Browser;
let page: Page;
let cutroom: Cutroom;
let workspaceId: string;
let planName: string;
let cspViolations: string[] = [];
let pageErrors: string[] = [];

/** A call of the admin API (docs/admin.md) with the operator token; the answer's JSON. */
async function admin(method: string, route: string, body?: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${base}/admin/v1${route}`, {
    method,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as Record<string, unknown>;
  expect(res.ok, `${method} ${route}: ${JSON.stringify(json)}`).toBe(true);
  return json;
}

const balance = async () => (await ok(cutroom.api.GET('/api/v1/balance'))).balance;

/** The balance set to `target` by one ledger entry of the operator. */
async function setBalance(target: number): Promise<void> {
  const now = await balance();
  if (now !== target) await admin('POST', `/workspaces/${workspaceId}/credits`, { amount: target - now, reason: 'refusals e2e' });
  expect(await balance()).toBe(target);
}

/** Nothing on the page reads like a stack, an error class or an object printed as text. */
async function expectNoRawError(): Promise<void> {
  const text = await page.locator('body').innerText();
  expect(text).not.toContain('[object Object]');
  expect(text).not.toMatch(/\w*Error:/);
  expect(text).not.toMatch(/(^|\n)\s*at \S/);
  expect(text).not.toMatch(/\bat \S+ \(|\S+\.(js|ts|tsx):\d+:\d+/);
}

/** The alert of a refused start, its words checked for raw errors. */
async function refusal(name: string | RegExp): Promise<Locator> {
  const alert = page.getByRole('alert').filter({ hasText: name });
  await alert.waitFor({ timeout: 30_000 });
  await expectNoRawError();
  return alert;
}

beforeAll(async () => {
  dir = tempDir('cutroom-studio-refusals-e2e-');
  buildStudio();
  speech = (
    await makeSpeechWav(path.join(dir, 'hello.wav'), [{ silence: 0.3 }, { say: 'hello and welcome back to the show', ...VOICES.male }, { silence: 0.3 }])
  ).path;
  picture = path.join(dir, 'pattern.png');
  execFileSync('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=160x120', '-frames:v', '1', '-y', picture]);
  ({ server, base, key } = await startServe(dir, { CUTROOM_ADMIN_TOKEN: ADMIN_TOKEN, CUTROOM_TOP_UP_URL: TOP_UP_URL }));
  cutroom = new Cutroom({ baseUrl: base, apiKey: key });
  const workspace = await ok(cutroom.api.GET('/api/v1/workspace'));
  workspaceId = workspace.id;
  planName = workspace.plan_name;
  ({ browser, page, cspViolations, pageErrors } = await launchStudioBrowser());
  await signIn(page, base, key);
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await stopServe(server);
  fs.rmSync(dir, { recursive: true, force: true });
});

const nav = () => page.getByRole('navigation', { name: 'Main' });

describe('Studio: refusals of a charged start, in words', () => {
  it('Transcriptions: too little credit is refused in words (needed vs balance), nothing created or charged', async () => {
    await setBalance(0);
    await nav().getByRole('link', { name: 'Transcriptions' }).click();
    await page.getByRole('heading', { level: 1, name: 'Transcriptions' }).waitFor();
    await page.getByLabel('Media file').setInputFiles(speech);
    await page.getByText('hello.wav is uploaded').waitFor({ timeout: 30_000 });
    const prices = await ok(cutroom.api.GET('/api/v1/transcriptions/prices'));
    await page.getByRole('button', { name: 'Transcribe' }).click();
    const alert = await refusal(/Not enough credits/);
    await expect(alert.textContent()).resolves.toBe(
      `Not enough credits: this needs ${prices.per_minute} and the balance is 0. Top up, or ask for less (a shorter stretch, file or video). (INSUFFICIENT_CREDITS)`,
    );
    // The service names no top-up address for transcriptions: no link then.
    await expect(alert.getByRole('link').count()).resolves.toBe(0);
    // Still on the form, ready to try again; nothing created, nothing charged.
    expect(new URL(page.url()).pathname).toBe('/transcriptions');
    await expect(page.getByRole('button', { name: 'Transcribe' }).isEnabled()).resolves.toBe(true);
    await expect(page.getByRole('button', { name: 'Transcribe' }).getAttribute('aria-describedby')).resolves.toBe(await alert.getAttribute('id'));
    expect((await ok(cutroom.api.GET('/api/v1/transcriptions'))).transcriptions).toEqual([]);
    expect(await balance()).toBe(0);
    await checkStudioPage(page, 'refusals-transcriptions-credits');
  }, 120_000);

  it('Generations: too little credit is refused in words with the balance and a link to top up; nothing charged', async () => {
    const { models } = await ok(cutroom.api.GET('/api/v1/generations/models', { params: { query: { limit: 100 } } }));
    const upscale = models.find((m) => m.id === 'upscale-x4')!;
    const price = (upscale.price as { per_image: number }).per_image;
    expect(price).toBeGreaterThan(1);
    await setBalance(price - 1);
    await nav().getByRole('link', { name: 'Generations' }).click();
    await page.getByRole('heading', { level: 1, name: 'Generations' }).waitFor();
    await page.getByRole('radio', { name: new RegExp(`^${upscale.name}`) }).check();
    await page.getByLabel('Reference image').setInputFiles(picture);
    await page.getByRole('img', { name: 'Reference: pattern.png' }).waitFor();
    await expect(page.locator('#generation-price').textContent()).resolves.toMatch(new RegExp(`^Price: ${price} credits\\. Balance: ${price - 1} credits?\\.`));
    await page.getByRole('button', { name: 'Generate' }).click();
    const alert = await refusal(/Not enough credits/);
    await expect(alert.textContent()).resolves.toMatch(
      new RegExp(`^Not enough credits: this needs ${price} and the balance is ${price - 1}\\. .*\\(INSUFFICIENT_CREDITS\\) Top up credits`),
    );
    const link = alert.getByRole('link', { name: /^Top up credits/ });
    await expect(link.getAttribute('href')).resolves.toBe(TOP_UP_URL);
    await expect(link.getAttribute('rel')).resolves.toContain('noopener');
    // Keyboard: the link is reachable from the Generate button.
    await page.getByRole('button', { name: 'Generate' }).focus();
    await page.keyboard.press('Tab');
    await expect(page.evaluate(() => (document.activeElement as HTMLAnchorElement | null)?.href)).resolves.toBe(TOP_UP_URL);
    // The reference stays for the next try; nothing made, nothing charged.
    await expect(page.getByRole('img', { name: 'Reference: pattern.png' }).count()).resolves.toBe(1);
    expect((await ok(cutroom.api.GET('/api/v1/generations'))).generations).toEqual([]);
    expect(await balance()).toBe(price - 1);
    await checkStudioPage(page, 'refusals-generations-credits');
  }, 120_000);

  it('Generations: a discount changed by the operator while the page is open is refused in words with the new price; one more click starts it at that price', async () => {
    const { models } = await ok(cutroom.api.GET('/api/v1/generations/models', { params: { query: { limit: 100 } } }));
    const upscale = models.find((m) => m.id === 'upscale-x4')!;
    const shown = (upscale.price as { per_image: number }).per_image;
    await setBalance(20);
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Generations' }).waitFor();
    await page.getByRole('radio', { name: new RegExp(`^${upscale.name}`) }).check();
    await page.getByLabel('Reference image').setInputFiles(picture);
    await page.getByRole('img', { name: 'Reference: pattern.png' }).waitFor();
    const priceLine = page.locator('#generation-price');
    await expect(priceLine.textContent()).resolves.toMatch(new RegExp(`^Price: ${shown} credits\\. Balance: 20 credits\\.`));

    // The operator halves the plan's prices meanwhile: the price on the page is stale.
    await admin('PATCH', `/plans/${planName}`, { discount_percent: 50 });
    const measured = Math.max(1, Math.ceil(shown / 2));
    expect(measured).not.toBe(shown);
    await page.getByRole('button', { name: 'Generate' }).click();
    const alert = await refusal(/price has changed/);
    await expect(alert.textContent()).resolves.toBe(
      `The price has changed: it is now ${measured} credit${measured === 1 ? '' : 's'}. Nothing was charged; confirm the new price. (PRICE_CHANGED)`,
    );
    // The new price is the one shown now, with the discount that made it.
    await expect
      .poll(() => priceLine.textContent())
      .toMatch(new RegExp(`^Price: ${measured} credits? \\(the plan’s 50 % discount applied\\)\\. Balance: 20 credits\\.`));
    expect((await ok(cutroom.api.GET('/api/v1/generations'))).generations).toEqual([]);
    expect(await balance()).toBe(20);
    await checkStudioPage(page, 'refusals-generations-price-changed');

    // One click, no reload: started at the new price.
    await page.getByRole('button', { name: 'Generate' }).click();
    await page.getByText(/^Started: /).waitFor();
    await expect(page.getByText(/^Started: /).textContent()).resolves.toContain(`for ${measured} credit`);
    await expect(page.getByRole('alert').count()).resolves.toBe(0);
    const { generations } = await ok(cutroom.api.GET('/api/v1/generations'));
    expect(generations).toHaveLength(1);
    expect(generations[0]).toMatchObject({ model_id: upscale.id, credits_charged: measured });
    expect(await balance()).toBe(20 - measured);
    await expectNoRawError();
  }, 120_000);

  it('the pages had no CSP violation and no script error', () => {
    expect(cspViolations).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
