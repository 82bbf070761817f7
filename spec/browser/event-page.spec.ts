import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';
import { DEMO, listenWithRealtime, startAppHarness } from '../support/app-harness.js';
import type { AppHarness } from '../support/app-harness.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const STEP_TIMEOUT_MS = 10_000;
const OUTPUT_DIR = join(process.cwd(), 'spec', 'output');

let harness: AppHarness;
let app: { url: string; close(): Promise<void> };
let browser: Browser;

beforeAll(async () => {
  // Live connections are verified again every 300 ms, so a platform logout shows within a second.
  harness = await startAppHarness({ app: { reverifyIntervalMs: 300 } });
  app = await listenWithRealtime(harness.app);
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    timeout: 30_000,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
  await harness?.close();
});

async function newPage(): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  page.setDefaultTimeout(STEP_TIMEOUT_MS);
  page.setDefaultNavigationTimeout(STEP_TIMEOUT_MS);
  return page;
}

describe('the web event page in a real browser', () => {
  it('logs in on the emulator page, shows the member, and logs out', async () => {
    const page = await newPage();
    await page.goto(`${app.url}/event`);
    const login = page.getByTestId('login-link');
    await login.waitFor({ state: 'visible' });
    await expectText(page, 'status', 'You are not logged in.');

    await login.click();
    await page.waitForURL((url) => url.pathname === '/_emulator/web/login');
    await page.locator(`button[data-member-no="${DEMO.player}"]`).click();

    await page.waitForURL(`${app.url}/event`);
    await page.getByTestId('player').waitFor({ state: 'visible' });
    await expectText(page, 'member-no', DEMO.player);
    await expectText(page, 'guid', DEMO.playerGuid);
    await mkdir(OUTPUT_DIR, { recursive: true });
    await page.screenshot({ path: join(OUTPUT_DIR, 'event-page-logged-in.png'), fullPage: true });

    await page.getByTestId('logout-link').click();
    await page.waitForURL(`${app.url}/event`);
    await page.getByTestId('login-link').waitFor({ state: 'visible' });
    expect(await page.getByTestId('player').isHidden()).toBe(true);
    await page.context().close();
  });

  it('asks to log in again once the web token has expired', async () => {
    const page = await newPage();
    await logIn(page, DEMO.admin);
    harness.emulator.advanceClock(6 * 3_600_000 + 1000);
    await page.reload();
    await expectText(page, 'message', 'Your login has expired. Please log in again.');
    await page.getByTestId('login-link').waitFor({ state: 'visible' });
    await page.context().close();
  });

  it('says "try again later" while the platform fails, and recovers with the retry button', async () => {
    const page = await newPage();
    await logIn(page, DEMO.player);
    harness.emulator.injectFault({ endpoint: 'web', type: 'http5xx', count: -1 });
    await page.reload();
    await expectText(page, 'message', 'The login service is busy right now. Try again in');
    harness.emulator.clearFaults();
    await page.getByTestId('retry-button').click();
    await expectText(page, 'member-no', DEMO.player);
    await page.context().close();
  });

  it('shows the register_device answer with a retry button (stubbed: web tokens have no device check)', async () => {
    const page = await newPage();
    await page.route('**/api/event/me', (route) => route.fulfill({
      status: 403,
      contentType: 'application/problem+json',
      body: JSON.stringify({ status: 403, title: 'Device not registered', action: 'register_device', code: 46217 }),
    }));
    await page.goto(`${app.url}/event`);
    await expectText(page, 'message', 'This device is not registered for your account.');
    expect(await page.getByTestId('retry-button').isVisible()).toBe(true);
    await page.context().close();
  });
});

describe('live presence over Socket.IO', () => {
  it('shows the player live, and asks to log in again after a logout on the platform', async () => {
    const page = await newPage();
    await logIn(page, DEMO.player);
    await expectText(page, 'presence', `Live: connected as ${DEMO.player}`);
    // Log out on the platform in another tab: the event page hears nothing from it.
    const platformTab = await page.context().newPage();
    await platformTab.goto(`${harness.emulator.url}/_emulator/web/logout`);
    await expectText(page, 'message', 'Your login has expired. Please log in again.');
    await page.getByTestId('login-link').waitFor({ state: 'visible' });
    expect(await page.getByTestId('presence').getAttribute('data-state')).toBe('offline');
    await page.context().close();
  });

  it('tells the player an administrator ended the session', async () => {
    const page = await newPage();
    await logIn(page, DEMO.player);
    await expectText(page, 'presence', 'Live: connected');
    const response = await fetch(`${app.url}/admin/members/${DEMO.player}/disconnect`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${harness.token(DEMO.admin)}` },
    });
    expect(response.status).toBe(202);
    await expectText(page, 'message', 'An administrator ended your session.');
    await page.context().close();
  });
});

async function logIn(page: Page, memberNo: string): Promise<void> {
  await page.goto(`${app.url}/event`);
  await page.getByTestId('login-link').click();
  await page.locator(`button[data-member-no="${memberNo}"]`).click();
  await page.waitForURL(`${app.url}/event`);
  await expectText(page, 'member-no', memberNo);
}

async function expectText(page: Page, testId: string, text: string): Promise<void> {
  const locator = page.getByTestId(testId);
  await locator.filter({ hasText: text }).waitFor({ state: 'visible' });
  expect(await locator.textContent()).toContain(text);
}
