import { ApiError, errorMessage } from '../../api/errors';
import { vrchatRetrySentence } from '../../lib/vrchat-wait';

/**
 * The toast for a failed linking step: a refusal that says why (409: the server already has a group, the group
 * is linked to another server) shows the server's sentence; VRChat limiting requests says when to try again;
 * anything else the spec's text.
 */
export function linkFailureText(error: unknown, specText: string): string {
  const retry = vrchatRetrySentence(error);
  if (retry) return retry;
  if (error instanceof ApiError && error.status === 409) return errorMessage(error, specText);
  return specText;
}
