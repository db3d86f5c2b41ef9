// The faucet page as a person uses it: headless Chromium (Debian's `chromium`, driven by
// playwright-core) against a dev-network node with a milestone every second. The page
// loads only its own files with no console error, shows the faucet's balance and address,
// posts an address and shows the answer (accepted, then refused as a repeat, and refused
// for a bad address), and the balance follows the payout.
//
// FAUCET_SCREENSHOT=<file.png> also saves a screenshot of the page after a request
// (`npm run screenshot:faucet` writes docs/images/faucet.png).

import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumFound, launchChromium } from './chromium';
import { core, startTestNode, type TestNode } from './node-harness';
import { getJson, poll, testKey } from './transactions';

const found = chromiumFound('faucet');

describe.skipIf(!found)('the faucet page in Chromium', () => {
  let node: TestNode;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];
  const foreign: string[] = [];
  const recipient = core.bech32Encode('tst', { type: 0, pubKeyHash: testKey('faucet page').address });

  beforeAll(async () => {
    node = await startTestNode(['--milestone-interval', '1']);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 900, height: 640 } });
    page.on('console', (m) => {
      // The refused requests below are the node's answers, which Chromium logs as errors.
      if (m.type() === 'error' && !/status of (400|429)/.test(m.text())) problems.push(`console: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()} ${r.failure()?.errorText}`));
    page.on('request', (r) => {
      if (new URL(r.url()).origin !== node.url) foreign.push(r.url());
    });
  });
  afterAll(async () => {
    await browser?.close();
    await node?.stop();
  });

  it('shows the balance and address of the faucet, loading nothing but its own files', async () => {
    const response = await page.goto(`${node.url}/faucet`);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toContain("default-src 'none'");
    await page.waitForFunction(() => document.querySelector('#balance')?.textContent !== '…');
    expect(await page.textContent('#balance')).toBe('4,600,000,000 TST');
    expect(await page.textContent('#faucet-address')).toBe(
      'tst1qqgdnrahtvfnxtpphaksxpr2u34n5tkw7l26dqcfdmhsk9dt0gt86dxc8zc',
    );
    expect(problems).toEqual([]);
    expect(foreign).toEqual([]);
  });

  it('posts an address and shows the acceptance, and the balance after the payout', async () => {
    await page.fill('#address', recipient);
    await page.click('#submit');
    await page.waitForSelector('#result.ok');
    expect(await page.textContent('#result')).toBe(
      `Request accepted for ${recipient} (1 request waiting). The tokens arrive with the next milestone.`,
    );
    // 1000 TST promised or paid: the balance the page shows drops by that.
    await page.waitForFunction(
      () => document.querySelector('#balance')?.textContent === '4,599,999,000 TST',
      undefined,
      { timeout: 30_000 },
    );
    await poll(
      'the payout',
      async () =>
        (await getJson(node.url, `/api/indexer/v1/outputs/basic?address=${recipient}`)).body.items.length === 1
          ? true
          : undefined,
      30_000,
      200,
    );
    const shot = process.env.FAUCET_SCREENSHOT;
    if (shot) {
      mkdirSync(dirname(shot), { recursive: true });
      await page.screenshot({ path: shot });
    }
    expect(problems).toEqual([]);
  });

  it('shows the node’s reason for a repeated request and for a bad address', async () => {
    await page.click('#submit');
    await page.waitForSelector('#result.error');
    expect(await page.textContent('#result')).toMatch(
      new RegExp(`^too many requests: ${recipient} was funded less than 300 s ago; ask again in \\d+ s$`),
    );
    await page.fill('#address', 'rms1qqgdnrahtvfnxtpphaksxpr2u34n5tkw7l26dqcfdmhsk9dt0gt86dxc8zc');
    await page.click('#submit');
    await page.waitForFunction(() => /bech32/.test(document.querySelector('#result')?.textContent ?? ''));
    expect(await page.textContent('#result')).toMatch(
      /^invalid data provided: address: 'rms1.*' is not a valid bech32 address$/,
    );
    expect(problems).toEqual([]);
    expect(foreign).toEqual([]);
  });
});
