// Errors from the native core arrive in one format (crates/ledger-napi/src/errors.rs): a JS
// Error whose `code` is a kebab-case reason (an ErrorCode, error-codes.ts) and whose message
// is `<path>\u001f<detail>`, thrown by sync calls and rejecting the promise of async ones.
// This is the one place that reads it: LedgerError gives the parts back, so callers read
// `.code` and `.path` instead of parsing text.

import { ERROR_CODES, type ErrorCode } from './error-codes';

const SEPARATOR = '\u001f';
const CODES: ReadonlySet<string> = new Set(ERROR_CODES);

export class LedgerError extends Error {
  readonly code: ErrorCode;
  readonly path: string;
  readonly detail: string;

  constructor(code: ErrorCode, path: string, detail: string) {
    super(path ? `${path}: ${detail}` : detail);
    this.name = 'LedgerError';
    this.code = code;
    this.path = path;
    this.detail = detail;
  }
}

/** Whether `code` is one of the reasons a LedgerError carries. */
export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && CODES.has(code);
}

/** Run a native call, turning its errors into LedgerError. */
export function fromNative<T>(call: () => T): T {
  try {
    return call();
  } catch (err) {
    throw toLedgerError(err);
  }
}

/** Run an async native call: a sync throw and a rejection both become LedgerError. */
export async function fromNativeAsync<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw toLedgerError(err);
  }
}

/**
 * A failure carried as data, where each item of a batch fails on its own (`submitBlocks`'
 * outcomes): the same LedgerError a call would have thrown.
 */
export function failureError(failure: { code: string; path: string; detail: string }): LedgerError {
  if (isErrorCode(failure.code)) return new LedgerError(failure.code, failure.path, failure.detail);
  // Cannot happen (the binding's codes are the list's); kept visible rather than cast.
  return new LedgerError('binding-failure', failure.path, `${failure.code}: ${failure.detail}`);
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
  if (at >= 0 && isErrorCode(code)) return new LedgerError(code, err.message.slice(0, at), err.message.slice(at + 1));
  if (ARGUMENT_STATUSES.has(code)) return new LedgerError('invalid-argument', '', err.message);
  return err;
}
