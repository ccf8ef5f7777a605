import { ApiError, errorMessage, type FailureKind } from '../api/errors';

/**
 * What a person reads when a request fails: what failed, then why, in the server's own sentence ("Failed to
 * update guest role. Main and guest role must differ."). The one place every form and action builds it, so no
 * failure drops the server's reason. Without an answer (network, time-out) the reason says that instead; an
 * answer without a sentence leaves what failed alone, as the spec words it.
 */
export function failureSentence(whatFailed: string, error: unknown): string {
  const reason = reasonOf(error);
  if (!reason) return whatFailed;
  // The server's sentence may already say what failed (and more): say it once.
  if (reason.startsWith(whatFailed.replace(/[.!?…]$/, ''))) return reason;
  const stop = /[.!?…]$/.test(whatFailed) ? '' : '.';
  return `${whatFailed}${stop} ${reason}`;
}

/** The server's sentence, or why there was no answer; nothing when the answer carried no sentence. */
function reasonOf(error: unknown): string {
  const server = errorMessage(error, '').trim();
  if (server) return server;
  if (error instanceof ApiError && unanswered.has(error.kind)) return error.message;
  return '';
}

const unanswered = new Set<FailureKind>(['network', 'timeout']);
