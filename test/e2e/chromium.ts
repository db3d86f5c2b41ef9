// Headless Chromium for the browser tests: Debian's `chromium` (which .ci/run installs),
// driven by playwright-core. As root it runs only without its sandbox. Where there is no
// Chromium, the browser tests say so once and are skipped.

import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Whether Chromium is here; if not, a warning that names the `what` tests skipped. */
export function chromiumFound(what: string): boolean {
  const found = existsSync(CHROMIUM);
  if (!found)
    console.warn(
      `${what} browser tests SKIPPED: no Chromium at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH)`,
    );
  return found;
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS });
}
