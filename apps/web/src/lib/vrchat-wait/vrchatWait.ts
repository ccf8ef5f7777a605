import { useEffect, useState } from 'react';
import { ApiError, errorMessage } from '../../api/errors';
import { failureSentence } from '../failure-sentence';

/** After this long a wait on VRChat says that VRChat is slow (the server gives up at 10 s). */
export const VRCHAT_SLOW_AFTER_MS = 3000;

export const VRCHAT_SLOW = 'VRChat is slow to answer; still trying…';

/** True once `pending` has lasted `afterMs` without a break; false again as soon as it ends. */
export function useSlow(pending: boolean, afterMs = VRCHAT_SLOW_AFTER_MS): boolean {
  const [slow, setSlow] = useState(false);
  useEffect(() => {
    if (!pending) {
      setSlow(false);
      return;
    }
    const timer = setTimeout(() => setSlow(true), afterMs);
    return () => clearTimeout(timer);
  }, [pending, afterMs]);
  return pending && slow;
}

/**
 * When VRChat is limiting requests (a 429, or the server's 503 after its wait, with `Retry-After`): the sentence
 * saying when to try again. Nothing for other failures, or when the answer names Discord.
 */
export function vrchatRetrySentence(error: unknown): string | undefined {
  if (!(error instanceof ApiError) || error.retryAfterSeconds === undefined) return undefined;
  if (error.status !== 429 && error.status !== 503) return undefined;
  if (/discord/i.test(errorMessage(error, ''))) return undefined;
  const seconds = error.retryAfterSeconds;
  return `VRChat is limiting requests. Try again in ${seconds} second${seconds === 1 ? '' : 's'}.`;
}

/** A failure of something that waited on VRChat: when to try again if VRChat is limiting, else what failed and why. */
export function vrchatFailureSentence(whatFailed: string, error: unknown): string {
  return vrchatRetrySentence(error) ?? failureSentence(whatFailed, error);
}
