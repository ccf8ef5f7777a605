import { ApiError, errorMessage } from '../../api/errors';

/**
 * The toast for a failed linking step: a refusal that says why (409: the server already has a group, the group
 * is linked to another server) shows the server's sentence; anything else the spec's text.
 */
export function linkFailureText(error: unknown, specText: string): string {
  if (error instanceof ApiError && error.status === 409) return errorMessage(error, specText);
  return specText;
}
