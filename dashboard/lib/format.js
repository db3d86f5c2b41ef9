// How figures read on the page: IDs shortened in lists, amounts in the base token's unit,
// bytes, durations and times.

export const shortId = (id) => (id.length > 20 ? `${id.slice(0, 10)}…${id.slice(-6)}` : id);

/** A decimal amount of subunits as the base token (`1000000` → `1 TST` with 6 decimals). */
export function formatAmount(amount, baseToken) {
  const decimals = baseToken?.decimals ?? 0;
  const unit = baseToken?.unit ?? '';
  const value = BigInt(amount);
  const scale = 10n ** BigInt(decimals);
  const whole = (value / scale).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const fraction = decimals > 0 ? (value % scale).toString().padStart(decimals, '0').replace(/0+$/, '') : '';
  return `${whole}${fraction ? '.' + fraction : ''} ${unit}`.trim();
}

export function formatBytes(bytes) {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let i = 0;
  while (value >= 1024 && i < units.length - 1) {
    value /= 1024;
    i++;
  }
  return `${i === 0 || value >= 100 ? Math.round(value) : value.toFixed(1)} ${units[i]}`;
}

/** 93784000 ms → `1 d 2 h 3 min`; under a minute in seconds. */
export function formatDuration(ms) {
  const s = Math.floor(ms / 1000);
  if (s < 60) return `${s} s`;
  const parts = [];
  const d = Math.floor(s / 86400);
  const hours = Math.floor((s % 86400) / 3600);
  const min = Math.floor((s % 3600) / 60);
  if (d > 0) parts.push(`${d} d`);
  if (hours > 0 || d > 0) parts.push(`${hours} h`);
  parts.push(`${min} min`);
  return parts.join(' ');
}

/** A Unix time in seconds as local date and time. */
export const formatTime = (unixSeconds) => new Date(unixSeconds * 1000).toLocaleString();

/** Bytes as UTF-8 text when they are printable, else null. */
export function printableText(bytes) {
  if (bytes.length === 0) return null;
  let text;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what it rejects (all but \t \n \v \f \r).
  return /^[^\u0000-\u0008\u000e-\u001f\u007f]*$/.test(text) ? text : null;
}
