import { ApiError } from '../../../api/errors';
import { EmptyState } from '../../../components/EmptyState';

/** The server answers 404 for a world that is not this server's (or does not exist). */
export const isNotFound = (error: unknown) => error instanceof ApiError && error.status === 404;

/** The address names a world of another server, or none. */
export function WorldNotFound() {
  return (
    <EmptyState title="World not found" textAlign="center">
      This server has no world with this id. Go back to the Worlds tab and choose one of its worlds.
    </EmptyState>
  );
}
