// HTTP errors with the project's error body (D6, api.md §1.3):
// {"error":{"code":"<status>","message":…}}. The message is the status's base text,
// optionally followed by ": " and a reason. The same body for the REST routes, the answers
// before Koa and the event API's refused upgrades, so it lives outside server/.

export const BASE_MESSAGES: Record<number, string> = {
  400: 'invalid data provided',
  403: 'not available for public use',
  404: 'could not find data',
  405: 'method not allowed',
  413: 'request entity too large',
  415: 'unsupported media type',
  429: 'too many requests',
  500: 'internal server error',
  502: 'bad gateway',
  503: 'service unavailable',
};

export class HttpError extends Error {
  readonly status: number;
  readonly reason: string | undefined;
  /** Response headers that belong to the error, e.g. Retry-After on a 503. */
  readonly headers: Record<string, string>;

  constructor(status: number, reason?: string, headers: Record<string, string> = {}) {
    super(errorMessage(status, reason));
    this.name = 'HttpError';
    this.status = status;
    this.reason = reason;
    this.headers = headers;
  }

  body(): string {
    return errorBodyText(this.status, this.reason);
  }
}

function errorMessage(status: number, reason: string | undefined): string {
  const base = BASE_MESSAGES[status] ?? 'error';
  return reason === undefined ? base : `${base}: ${reason}`;
}

/** The D6 body of a status and reason, for an answer given without throwing (no stack trace
 * to capture): the same text as `new HttpError(status, reason).body()`. */
export function errorBodyText(status: number, reason?: string): string {
  return JSON.stringify({ error: { code: String(status), message: errorMessage(status, reason) } });
}

export const badRequest = (reason?: string) => new HttpError(400, reason);
export const notFound = (reason?: string) => new HttpError(404, reason);
export const unavailable = (reason?: string, headers?: Record<string, string>) => new HttpError(503, reason, headers);

/** A LedgerError-like value (code, path, detail) as a 400 reason: `<path>: <detail>`. */
export function invalidData(err: { path?: string; detail?: string; message?: string }): HttpError {
  const detail = err.detail ?? err.message ?? 'invalid';
  return badRequest(err.path ? `${err.path}: ${detail}` : detail);
}
