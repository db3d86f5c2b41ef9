// What a person sees first when starting the node on a terminal: which node, which
// network, where to point a browser, a wallet or curl, and where the data lives.

import { resolve } from 'node:path';

export interface BannerFacts {
  version: string;
  networkName: string;
  bech32Hrp: string;
  /** The node's base URL, e.g. http://127.0.0.1:14265. */
  url: string;
  dataDir: string;
  dashboard: boolean;
  events: boolean;
  /** The faucet's URL while the faucet is on. */
  faucetUrl?: string;
}

export function banner(f: BannerFacts, color = false): string {
  const bold = (s: string) => (color ? `\u001b[1m${s}\u001b[22m` : s);
  const dim = (s: string) => (color ? `\u001b[2m${s}\u001b[22m` : s);
  const rows: [string, string][] = [
    ['REST API', `${f.url}/api/core/v2/info`],
    ['Dashboard', f.dashboard ? `${f.url}/dashboard/` : 'off (--no-dashboard)'],
    ['Events', f.events ? `${f.url.replace(/^http/, 'ws')}/api/mqtt/v1` : 'off (--no-events)'],
  ];
  if (f.faucetUrl) rows.push(['Faucet', f.faucetUrl]);
  rows.push(['Data', resolve(f.dataDir)]);
  rows.push(['Dev keys', 'the genesis seed is public: README.md, "Walkthrough with curl", step 4']);
  const width = Math.max(...rows.map(([label]) => label.length)) + 2;
  return [
    '',
    `  ${bold(`ledger-node ${f.version}`)} · Stardust protocol 2 · network ${f.networkName} (${f.bech32Hrp})`,
    '',
    ...rows.map(([label, value]) => `  ${dim(label.padEnd(width))}${value}`),
    '',
    `  ${dim('Ctrl+C stops the node.')}`,
    '',
    '',
  ].join('\n');
}
