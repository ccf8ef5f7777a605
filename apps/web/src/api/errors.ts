/** The spec's generic client failure kinds. */
export type FailureKind = 'network' | 'aborted' | 'timeout' | 'bad-request' | 'bad-response';

const defaultMessages: Record<FailureKind, string> = {
  network: 'Network error: the server could not be reached.',
  aborted: 'The request was aborted.',
  timeout: 'The request timed out.',
  'bad-request': 'The request was rejected.',
  'bad-response': 'The server returned an unexpected response.',
};

/** A failed call: what went wrong, the HTTP status when there was one, and the server's body. */
export class ApiError extends Error {
  constructor(
    readonly kind: FailureKind,
    message: string,
    readonly status?: number,
    readonly body?: unknown,
    /** Seconds to wait, from a 429's or 503's `Retry-After` header (a number of seconds or an HTTP date). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** 4xx is the caller's fault (bad request); anything else unexpected is a bad response. */
export function kindForStatus(status: number): FailureKind {
  return status >= 400 && status < 500 ? 'bad-request' : 'bad-response';
}

function bodyMessage(body: unknown): string | undefined {
  if (body && typeof body === 'object' && 'message' in body) {
    const { message } = body as { message: unknown };
    if (typeof message === 'string' && message.trim()) return message;
  }
  return undefined;
}

/** Builds the error for a non-2xx answer, keeping the server's `message` when it sent one. */
export function responseError(response: Response, body: unknown): ApiError {
  const kind = kindForStatus(response.status);
  const retryAfter = retryAfterSeconds(response.headers.get('Retry-After'));
  return new ApiError(kind, bodyMessage(body) ?? defaultMessages[kind], response.status, body, retryAfter);
}

function retryAfterSeconds(header: string | null): number | undefined {
  if (!header) return undefined;
  const seconds = /^\d+$/.test(header.trim()) ? Number(header) : (Date.parse(header) - Date.now()) / 1000;
  return Number.isFinite(seconds) ? Math.max(1, Math.ceil(seconds)) : undefined;
}

/** Classifies what fetch threw: time-out, abort, or a network failure. */
export function thrownError(error: unknown): Error {
  if (error instanceof ApiError) return error;
  const name = error instanceof Error || error instanceof DOMException ? error.name : '';
  if (name === 'TimeoutError') return new ApiError('timeout', defaultMessages.timeout);
  if (name === 'AbortError') return new ApiError('aborted', defaultMessages.aborted);
  if (error instanceof TypeError) return new ApiError('network', defaultMessages.network);
  return error instanceof Error ? error : new ApiError('network', defaultMessages.network);
}

/** The text to show for a failure: the server's message, else the caller's fallback. */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError) return bodyMessage(error.body) ?? fallback;
  return bodyMessage(error) ?? fallback;
}
