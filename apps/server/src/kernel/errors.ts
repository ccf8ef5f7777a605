/**
 * The product's failures, by what went wrong rather than by how a transport says it. Services throw these;
 * `http/errors.ts` turns a kind into a status (one table), the job worker into give-up-or-retry, and the
 * bot into a reply. The message is always a sentence safe to show the user.
 */
export type ErrorKind =
  /** The caller may not do this (no permission, not signed in). */
  | 'refused'
  /** What was asked about does not exist (or is not the caller's to see). */
  | 'missing'
  /** The thing changed meanwhile, or the request clashes with its state. */
  | 'conflict'
  /** Too many requests: waiting helps. */
  | 'limited'
  /** Something the product needs is not there right now: trying again later helps. */
  | 'unavailable'
  /** The request itself is wrong. */
  | 'invalid';

/**
 * A finer reason within a kind, for the few answers whose transport tells them apart (an expired request
 * is missing, but HTTP says 410). Most errors have none.
 */
export type ErrorDetail = 'not-signed-in' | 'expired' | 'too-large' | 'unsupported-type' | 'unreadable';

export class AppError extends Error {
  constructor(
    readonly kind: ErrorKind,
    message: string,
    readonly detail?: ErrorDetail,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

/** Whether an error is the product's own, optionally of one kind. */
export const isAppError = (err: unknown, kind?: ErrorKind): err is AppError =>
  err instanceof AppError && (kind === undefined || err.kind === kind);

/** Kinds that a retry cannot fix: a job that meets one gives up and says why. */
export const isFinal = (kind: ErrorKind): boolean => kind !== 'limited' && kind !== 'unavailable';

export const invalid = (message: string, detail?: ErrorDetail) => new AppError('invalid', message, detail);
export const missing = (message = 'Not found.', detail?: ErrorDetail) =>
  new AppError('missing', message, detail);
export const refused = (message = 'You do not have permission to do this.', detail?: ErrorDetail) =>
  new AppError('refused', message, detail);
export const conflict = (message: string) => new AppError('conflict', message);
export const limited = (message: string) => new AppError('limited', message);
export const unavailable = (message: string) => new AppError('unavailable', message);
export const notSignedIn = (message = 'You must be logged in to do this.') =>
  new AppError('refused', message, 'not-signed-in');
