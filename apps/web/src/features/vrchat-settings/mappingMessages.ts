import { ApiError } from '../../api/errors';
import { failureSentence } from '../../lib/failure-sentence';

export const DELETE_FAILED = 'Failed to delete group role';

/** Already gone (404) or never valid (400): the list refreshes and nothing needs saying. */
export const deleteFailureMatters = (err: unknown) =>
  !(err instanceof ApiError && (err.status === 404 || err.status === 400));

/** The server's sentence says which role and why. */
export const updateFailed = (err: Error) => failureSentence('Failed to update role mapping.', err);
