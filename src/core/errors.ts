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

// napi-rs statuses for arguments of the wrong JavaScript type (a number where a string is
// expected, a detached buffer…): the caller's mistake, so reported like other bad input.
const ARGUMENT_STATUSES = new Set([
  'InvalidArg',
  'ObjectExpected',
  'StringExpected',
  'NameExpected',
  'FunctionExpected',
  'NumberExpected',
  'BooleanExpected',
  'ArrayExpected',
  'BigintExpected',
  'DateExpected',
  'ArrayBufferExpected',
]);

/**
 * A protocol error of the core becomes a LedgerError; so does a napi argument-type error
 * (code `invalid-argument`). Anything else — a failure inside the binding — is returned
 * unchanged, so it is not mistaken for bad input.
 */
export function toLedgerError(err: unknown): unknown {
  if (err instanceof LedgerError || !(err instanceof Error)) return err;
  const code = (err as { code?: unknown }).code;
  if (typeof code !== 'string') return err;
  const at = err.message.indexOf(SEPARATOR);
  if (at >= 0) return new LedgerError(code, err.message.slice(0, at), err.message.slice(at + 1));
  if (ARGUMENT_STATUSES.has(code)) return new LedgerError('invalid-argument', '', err.message);
  return err;
}
