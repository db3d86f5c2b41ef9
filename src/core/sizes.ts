// Size and duration texts as Hornet's configuration and REST API spell them
// (docs/configuration.md `pruning`): sizes as gommon's `bytes.Parse` reads them ("30GB" =
// 30·10⁹ bytes, "50M" = 5·10⁷, "2GiB"/"2Gi" = 2·2³⁰, a bare number = bytes), durations as
// Go's `time.ParseDuration` ("5m", "1h30m", "250ms").

const DECIMAL: Record<string, number> = { K: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18 };
const SIZE = /^(\d+(?:\.\d+)?)\s*(?:([KMGTPE])(I)?B?|B)?$/;

/** Bytes of a size text; throws RangeError with Hornet's reason when it is not one. */
export function parseSize(text: string): number {
  const m = SIZE.exec(text.trim().toUpperCase());
  if (!m) throw new RangeError(`invalid size: ${JSON.stringify(text)}`);
  const value = Number(m[1]);
  if (!m[2]) return Math.floor(value);
  const unit = m[3] ? 2 ** (10 * ('KMGTPE'.indexOf(m[2]) + 1)) : DECIMAL[m[2]];
  return Math.floor(value * unit);
}

const DURATION_UNITS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  μs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};
const DURATION_PART = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/y;

/** Milliseconds of a Go duration text ("0" alone is allowed, as in Go); throws RangeError otherwise. */
export function parseDuration(text: string): number {
  if (text === '0') return 0;
  let rest = text;
  let sign = 1;
  if (rest.startsWith('-') || rest.startsWith('+')) {
    sign = rest.startsWith('-') ? -1 : 1;
    rest = rest.slice(1);
  }
  if (rest === '') throw new RangeError(`invalid duration: ${JSON.stringify(text)}`);
  let total = 0;
  DURATION_PART.lastIndex = 0;
  while (DURATION_PART.lastIndex < rest.length) {
    const m = DURATION_PART.exec(rest);
    if (!m) throw new RangeError(`invalid duration: ${JSON.stringify(text)}`);
    total += Number(m[1]) * DURATION_UNITS[m[2]];
  }
  return sign * total;
}
