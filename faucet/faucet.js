// The faucet page: shows the faucet's balance (GET /api/faucet/v1/info) and posts the
// address (POST /api/faucet/v1/enqueue), then shows the node's answer. Own origin only.
'use strict';

const $ = (id) => document.getElementById(id);
let info;

function formatAmount(units) {
  if (!info) return String(units);
  const decimals = info.decimals ?? 6;
  const whole = Math.floor(units / 10 ** decimals);
  const fraction = String(units % 10 ** decimals)
    .padStart(decimals, '0')
    .replace(/0+$/, '');
  return `${whole.toLocaleString('en-US')}${fraction ? '.' + fraction : ''} ${info.unit}`;
}

async function refresh() {
  try {
    const response = await fetch('/api/faucet/v1/info');
    if (!response.ok) throw new Error(`${response.status}`);
    const body = await response.json();
    const node = await (await fetch('/api/core/v2/info')).json().catch(() => undefined);
    const token = node?.baseToken;
    info = { ...body, unit: token?.unit ?? body.tokenName, decimals: token?.decimals };
    $('balance').textContent = formatAmount(body.balance);
    $('faucet-address').textContent = body.address;
    $('address').placeholder = `${body.bech32Hrp}1…`;
  } catch {
    $('balance').textContent = 'unavailable';
  }
}

function show(text, ok) {
  const result = $('result');
  result.textContent = text;
  result.className = ok ? 'ok' : 'error';
}

$('request').addEventListener('submit', async (event) => {
  event.preventDefault();
  const address = $('address').value.trim();
  $('submit').disabled = true;
  try {
    const response = await fetch('/api/faucet/v1/enqueue', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ address }),
    });
    const body = await response.json().catch(() => ({}));
    if (response.status === 202) {
      const waiting = body.waitingRequests === 1 ? '1 request' : `${body.waitingRequests} requests`;
      show(
        `Request accepted for ${body.address} (${waiting} waiting). The tokens arrive with the next milestone.`,
        true,
      );
    } else {
      show(body.error?.message ?? `The node answered ${response.status}.`, false);
    }
  } catch (err) {
    show(`Could not reach the node: ${err.message}`, false);
  } finally {
    $('submit').disabled = false;
    refresh();
  }
});

refresh();
setInterval(refresh, 5000);
