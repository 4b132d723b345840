import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { ROOT } from './process.js';

/**
 * What the Studio's browser tests share: the Studio built as the service serves it, Debian's chromium
 * driven by playwright-core (never a downloaded browser), a page that records CSP violations and script
 * errors, axe-core with no serious or critical violation, and each page checked at both window sizes
 * with a full-page screenshot in test-results/studio/.
 */

export const SHOTS = path.join(ROOT, 'test-results/studio');
export const SIZES = { desktop: { width: 1440, height: 900 }, phone: { width: 390, height: 844 } } as const;
const AXE = fs.readFileSync(path.join(ROOT, 'node_modules/axe-core/axe.min.js'), 'utf8');

/** What the Studio's build reads: the app, the SDK's browser entry and the addresses and rules it shares with the service. */
const STUDIO_SOURCES = ['web', 'sdk/src', 'src/shared', 'package.json'].map((p) => path.join(ROOT, p));
const STUDIO_INDEX = path.join(ROOT, 'dist/web/index.html');
const BUILD_LOCK = path.join(ROOT, 'dist/.studio-build-lock');

function newestMtime(file: string): number {
  const st = fs.statSync(file);
  if (!st.isDirectory()) return st.mtimeMs;
  return fs.readdirSync(file).reduce((m, name) => Math.max(m, newestMtime(path.join(file, name))), st.mtimeMs);
}

const studioIsBuilt = () => fs.existsSync(STUDIO_INDEX) && fs.statSync(STUDIO_INDEX).mtimeMs > Math.max(...STUDIO_SOURCES.map(newestMtime));

/**
 * Builds the Studio into dist/web (what `cutroom serve` serves) when its sources changed since the last
 * build, and makes the screenshot folder. Browser test files run side by side: one builds under a lock
 * (a directory, created atomically) while the others wait, so no file's server ever serves a half-emptied
 * dist/web.
 */
export function buildStudio(): void {
  fs.mkdirSync(SHOTS, { recursive: true });
  if (studioIsBuilt()) return;
  fs.mkdirSync(path.dirname(BUILD_LOCK), { recursive: true });
  const deadline = Date.now() + 5 * 60_000;
  for (;;) {
    try {
      fs.mkdirSync(BUILD_LOCK);
      break;
    } catch {
      if (Date.now() > deadline) fs.rmSync(BUILD_LOCK, { recursive: true, force: true }); // a build that died
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 500);
    }
  }
  try {
    if (!studioIsBuilt()) execFileSync('npm', ['run', '-s', 'build:web'], { cwd: ROOT, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
  } finally {
    fs.rmSync(BUILD_LOCK, { recursive: true, force: true });
  }
}

export interface StudioBrowser {
  browser: Browser;
  page: Page;
  /** Console errors the Content Security Policy raised. */
  cspViolations: string[];
  /** Uncaught script errors of the page. */
  pageErrors: string[];
}

/** Debian's chromium, headless, one page at the desktop size recording CSP violations and script errors. */
export async function launchStudioBrowser(extraArgs: string[] = []): Promise<StudioBrowser> {
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...extraArgs,
    ],
  });
  const page = await browser.newPage({ viewport: SIZES.desktop });
  const cspViolations: string[] = [];
  const pageErrors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy/i.test(m.text())) cspViolations.push(m.text());
  });
  page.on('pageerror', (e) => pageErrors.push(e.message));
  return { browser, page, cspViolations, pageErrors };
}

/** axe-core in the page (given by the driver, since the CSP refuses inline scripts): no serious or critical violation. */
export async function expectAccessible(page: Page, name: string): Promise<void> {
  await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    const w = window as unknown as {
      axe: { run(ctx: Document, opts: object): Promise<{ violations: Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }> }> };
    };
    const r = await w.axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(' ')).slice(0, 5) }));
  });
  expect(
    violations.filter((v) => v.impact === 'serious' || v.impact === 'critical'),
    `${name}: ${JSON.stringify(violations)}`,
  ).toEqual([]);
}

/**
 * The page at both sizes: nothing sticks out sideways (the page fits the window's width), axe at each,
 * a full-page screenshot of each (test-results/studio/<name>-<size>.png); back to the desktop size.
 */
export async function checkStudioPage(page: Page, name: string): Promise<void> {
  for (const [size, viewport] of Object.entries(SIZES)) {
    await page.setViewportSize(viewport);
    await page.waitForTimeout(150);
    expect(await page.evaluate(() => document.documentElement.scrollWidth), `${name} ${size}`).toBeLessThanOrEqual(viewport.width);
    await expectAccessible(page, `${name} ${size}`);
    await page.screenshot({ path: path.join(SHOTS, `${name}-${size}.png`), fullPage: true });
  }
  await page.setViewportSize(SIZES.desktop);
}

/** Signs in on the service's Studio with an API key, as a person does; back on Home ("Personal"). */
export async function signIn(page: Page, base: string, key: string): Promise<void> {
  await page.goto(`${base}/`);
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: 'Personal' }).waitFor();
}
