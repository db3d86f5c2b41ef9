// Errors from the native core arrive as JS Errors whose `code` is a kebab-case reason and
// whose message is `<path>\u001f<detail>` (crates/ledger-napi/src/errors.rs). LedgerError
// gives them back their parts, so callers read `.code` and `.path` instead of parsing text.

const SEPARATOR = '\u001f';

export class LedgerError extends Error {
  readonly code: string;
  readonly path: string;
  readonly detail: string;

  constructor(code: string, path: string, detail: string) {
    super(path ? `${path}: ${detail}` : detail);
    this.name = 'LedgerError';
    this.code = code;
    this.path = path;
    this.detail = detail;
  }
}

/** Run a native call, turning its errors into LedgerError. */
export function fromNative<T>(call: () => T): T {
  try {
    return call();
  } catch (err) {
    throw toLedgerError(err);
  }
}

export function toLedgerError(err: unknown): unknown {
  if (err instanceof LedgerError || !(err instanceof Error)) return err;
  const code = (err as { code?: unknown }).code;
  const at = err.message.indexOf(SEPARATOR);
  if (typeof code !== 'string' || at < 0) return err;
  return new LedgerError(code, err.message.slice(0, at), err.message.slice(at + 1));
}
